// SPDX-License-Identifier: GPL-2.0
/*
 * What the files of a sound card do once the card is gone. snd-dummy is
 * unbound from its driver while the test holds files of it;
 * snd_card_free() calls snd_card_disconnect() (sound/core/init.c), which
 * revokes every file of the card: new calls get snd_disconnected_f_ops,
 * threads inside methods are kicked out, each file is released and its
 * mappings zapped; then the devices are disconnected and the card is
 * dropped from snd_cards[]. The unbind returns without waiting for any
 * close(). An old fd then gives, as it always has:
 *
 *	ioctl		ENODEV, whatever the request
 *	read, write	ENODEV, readv/writev too (no ->read_iter or
 *			->write_iter: one ->write call) but only where the
 *			file could read or write at open: vfs_read/vfs_write
 *			refuse with EINVAL a file without FMODE_CAN_READ/
 *			WRITE, as a playback PCM (no ->read) and the control
 *			device (no ->write) are
 *	poll		POLLERR: the revoked ->poll returns EPOLLERR |
 *			EPOLLNVAL, do_pollfd() masks it with the events
 *			asked for plus EPOLLERR | EPOLLHUP; epoll the same;
 *			select() does not mask, EPOLLNVAL is in each of
 *			POLLIN_SET, POLLOUT_SET and POLLEX_SET
 *	mmap		ENODEV
 *	O_ASYNC		ENODEV (from setfl())
 *	lseek		ESPIPE: nonseekable_open() cleared FMODE_LSEEK
 *	fstat, dup, fcntl(O_NONBLOCK), close: work, no f_op involved
 *
 * The device nodes are gone with the card (device_del() of each device);
 * its old device number opens nothing (snd_open(): snd_minors[] is empty).
 * Mappings of a PCM file stay usable: see mmap_after_unbind and
 * unbind_returns_with_mappings.
 *
 * What the old fds and mappings do is what Linux 6.12 does too, where
 * the disconnect points every file at snd_shutdown_f_ops. What is new
 * is that the unbind returns: 6.12's snd_card_free() waits until every
 * file of the card is released. So the tests come in two kinds:
 *
 *	fds_after_unbind, mmap_after_unbind
 *		check the old fds and mappings, close and unmap all of
 *		them, and only then wait for the unbind: they pass on 6.12
 *		too, and base.suite runs them there;
 *	unbind_returns_with_*
 *		want the unbind back while files or mappings of the card
 *		are still in use, and bind the driver again before they
 *		close them: the series only.
 *
 * Each test ends by binding the driver again and checking the new card
 * plays.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "alsa-helpers.h"

#define GONE_TIMEOUT_MS 10000

FIXTURE(dummy_gone)
{
	struct alsa_keeper keeper;
	int card;
	int ctl, play, cap, idle, epfd, dupfd;
	void *status, *control, *data;
	size_t page, data_len;
	char node[64];
};

FIXTURE_SETUP(dummy_gone)
{
	self->ctl = self->play = self->cap = self->idle = -1;
	self->epfd = self->dupfd = -1;
	self->status = self->control = self->data = MAP_FAILED;
	self->page = sysconf(_SC_PAGESIZE);
	snprintf(self->node, sizeof(self->node), "/tmp/alsa-old-control-%d",
		 getpid());
	/* Before any file of the card is open: see alsa-helpers.h */
	ALSA_KEEPER_SETUP(&self->keeper, &alsa_keeper_dummy, self->card);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void unmap(void **addr, size_t len)
{
	if (*addr != MAP_FAILED)
		munmap(*addr, len);
	*addr = MAP_FAILED;
}

FIXTURE_TEARDOWN(dummy_gone)
{
	unmap(&self->status, self->page);
	unmap(&self->control, self->page);
	unmap(&self->data, self->data_len);
	close_fd(&self->ctl);
	close_fd(&self->play);
	close_fd(&self->cap);
	close_fd(&self->idle);
	close_fd(&self->epfd);
	close_fd(&self->dupfd);
	unlink(self->node);
	alsa_keeper_stop(&self->keeper, 20000);
}

/* Unbinds snd-dummy and waits until snd_card_disconnect() is through. */
#define TAKE_CARD_AWAY()						\
	do {								\
		ASSERT_EQ(0, alsa_keeper_remove(&self->keeper));	\
		ASSERT_TRUE(alsa_card_wait_gone(self->card,		\
						GONE_TIMEOUT_MS))	\
			TH_LOG("card %d still listed %d ms after unbind",\
			       self->card, GONE_TIMEOUT_MS);		\
	} while (0)

/*
 * The control device, a running playback and a running capture stream,
 * a playback file never set up and a second node of the control device
 * are open when the card goes; then every call on them. With
 * unbind_returns the unbind must have returned by then, with every file
 * open.
 */
static void check_fds_after_unbind(struct __test_metadata *_metadata,
				   FIXTURE_DATA(dummy_gone) *self,
				   bool unbind_returns)
{
	struct alsa_pcm_config pcfg = ALSA_STD_CONFIG(false, 1024, 4096);
	struct alsa_pcm_config ccfg = ALSA_STD_CONFIG(false, 1024, 4096);
	struct epoll_event ev = { .events = EPOLLOUT };
	struct timeval no_wait = { 0, 0 };
	static char buf[1024 * 4];
	struct snd_ctl_card_info info;
	struct snd_ctl_elem_list list;
	struct snd_pcm_hw_params hw;
	struct snd_pcm_status status;
	struct snd_ctl_event event;
	struct snd_xferi xferi;
	fd_set rset, wset, eset;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct stat st;
	char path[64];
	int version, on = 1, fl;

	/* The control device: unsubscribed, so snd_ctl_read refuses */
	self->ctl = alsa_ctl_open(self->card, 0);
	ASSERT_LE(0, self->ctl) TH_LOG("%s", strerror(-self->ctl));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, ioctl(self->ctl, SNDRV_CTL_IOCTL_CARD_INFO, &info));
	ASSERT_STREQ(ALSA_DUMMY_ID, (char *)info.id);
	EXPECT_ERRNO(EBADFD, read(self->ctl, &event, sizeof(event)));

	/* Playback running with a full buffer, never to underrun */
	self->play = alsa_pcm_open(self->card, 0, false, 0);
	ASSERT_LE(0, self->play) TH_LOG("%s", strerror(-self->play));
	ASSERT_EQ(0, alsa_pcm_hw_params(self->play, &pcfg));
	ASSERT_EQ(0, alsa_pcm_sw_params(self->play, pcfg.period_frames,
					pcfg.buffer_frames, ALSA_NEVER));
	ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
	ASSERT_EQ((ssize_t)(pcfg.buffer_frames * pcfg.frame_bytes),
		  alsa_pcm_write_silence(self->play, &pcfg,
					 pcfg.buffer_frames));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(self->play));

	/* Capture running, never to overrun */
	self->cap = alsa_pcm_open(self->card, 0, true, 0);
	ASSERT_LE(0, self->cap) TH_LOG("%s", strerror(-self->cap));
	ASSERT_EQ(0, alsa_pcm_hw_params(self->cap, &ccfg));
	ASSERT_EQ(0, alsa_pcm_sw_params(self->cap, ccfg.period_frames,
					ALSA_NEVER, ALSA_NEVER));
	ASSERT_EQ(0, ioctl(self->cap, SNDRV_PCM_IOCTL_PREPARE));
	ASSERT_EQ(0, ioctl(self->cap, SNDRV_PCM_IOCTL_START));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, alsa_pcm_state(self->cap));

	/* A playback file never set up */
	self->idle = alsa_pcm_open(self->card, 0, false, 0);
	ASSERT_LE(0, self->idle) TH_LOG("%s", strerror(-self->idle));
	ASSERT_EQ(SNDRV_PCM_STATE_OPEN, alsa_pcm_state(self->idle));

	/* A second node for the control device's number */
	snprintf(path, sizeof(path), "/dev/snd/controlC%d", self->card);
	ASSERT_EQ(0, stat(path, &st));
	ASSERT_EQ(0, mknod(self->node, S_IFCHR | 0600, st.st_rdev))
		TH_LOG("mknod %s: %s", self->node, strerror(errno));

	TAKE_CARD_AWAY();
	if (unbind_returns)
		EXPECT_UNBIND_RETURNED(&self->keeper, GONE_TIMEOUT_MS);

	/* Playback */
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_STATUS,
				   &status));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_HWSYNC));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_PVERSION,
				   &version));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_DROP));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_DRAIN));
	xferi.result = 0;
	xferi.buf = buf;
	xferi.frames = 64;
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_WRITEI_FRAMES,
				   &xferi));
	EXPECT_ERRNO(ENODEV, write(self->play, buf, sizeof(buf)));
	EXPECT_ERRNO(ENODEV, writev(self->play, &iov, 1));
	EXPECT_ERRNO(EINVAL, read(self->play, buf, sizeof(buf)));
	EXPECT_ERRNO(ENODEV, mmap(NULL, self->page, PROT_READ, MAP_SHARED,
				  self->play, SNDRV_PCM_MMAP_OFFSET_STATUS));
	EXPECT_ERRNO(ENODEV, mmap(NULL, self->page, PROT_READ | PROT_WRITE,
				  MAP_SHARED, self->play, 0));
	EXPECT_ERRNO(ESPIPE, lseek(self->play, 0, SEEK_SET));
	fl = fcntl(self->play, F_GETFL);
	EXPECT_ERRNO(ENODEV, fcntl(self->play, F_SETFL, fl | O_ASYNC));
	EXPECT_EQ(0, fcntl(self->play, F_SETFL, fl | O_NONBLOCK));
	EXPECT_EQ(0, ioctl(self->play, FIONBIO, &on));
	EXPECT_EQ(0, fstat(self->play, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->play, POLLOUT));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->play,
				    POLLIN | POLLOUT | POLLPRI | POLLRDHUP));
	/* Even asking for nothing: EPOLLERR is always in the filter */
	EXPECT_EQ(POLLERR, alsa_poll_now(self->play, 0));

	FD_ZERO(&rset);
	FD_ZERO(&wset);
	FD_ZERO(&eset);
	FD_SET(self->play, &rset);
	FD_SET(self->play, &wset);
	FD_SET(self->play, &eset);
	EXPECT_EQ(3, select(self->play + 1, &rset, &wset, &eset, &no_wait));
	EXPECT_TRUE(FD_ISSET(self->play, &rset));
	EXPECT_TRUE(FD_ISSET(self->play, &wset));
	EXPECT_TRUE(FD_ISSET(self->play, &eset));

	self->epfd = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, self->epfd);
	EXPECT_EQ(0, epoll_ctl(self->epfd, EPOLL_CTL_ADD, self->play, &ev));
	memset(&ev, 0, sizeof(ev));
	EXPECT_EQ(1, epoll_wait(self->epfd, &ev, 1, 0));
	EXPECT_EQ((uint32_t)EPOLLERR, ev.events);

	/* A dup shares the struct file, so the same f_op */
	self->dupfd = dup(self->play);
	ASSERT_LE(0, self->dupfd);
	EXPECT_ERRNO(ENODEV, ioctl(self->dupfd, SNDRV_PCM_IOCTL_HWSYNC));

	/* Capture */
	EXPECT_ERRNO(ENODEV, read(self->cap, buf, sizeof(buf)));
	xferi.frames = 64;
	EXPECT_ERRNO(ENODEV, ioctl(self->cap, SNDRV_PCM_IOCTL_READI_FRAMES,
				   &xferi));
	EXPECT_ERRNO(ENODEV, ioctl(self->cap, SNDRV_PCM_IOCTL_STATUS,
				   &status));
	EXPECT_ERRNO(EINVAL, write(self->cap, buf, sizeof(buf)));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->cap, POLLIN));

	/* The file never set up */
	EXPECT_ERRNO(ENODEV, ioctl(self->idle, SNDRV_PCM_IOCTL_STATUS,
				   &status));
	memset(&hw, 0, sizeof(hw));
	EXPECT_ERRNO(ENODEV, ioctl(self->idle, SNDRV_PCM_IOCTL_HW_PARAMS, &hw));
	EXPECT_ERRNO(ENODEV, write(self->idle, buf, sizeof(buf)));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->idle, POLLOUT));

	/* Control */
	EXPECT_ERRNO(ENODEV, ioctl(self->ctl, SNDRV_CTL_IOCTL_CARD_INFO,
				   &info));
	EXPECT_ERRNO(ENODEV, ioctl(self->ctl, SNDRV_CTL_IOCTL_PVERSION,
				   &version));
	memset(&list, 0, sizeof(list));
	EXPECT_ERRNO(ENODEV, ioctl(self->ctl, SNDRV_CTL_IOCTL_ELEM_LIST,
				   &list));
	EXPECT_ERRNO(ENODEV, ioctl(self->ctl,
				   SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS, &on));
	EXPECT_ERRNO(ENODEV, read(self->ctl, &event, sizeof(event)));
	EXPECT_ERRNO(EINVAL, write(self->ctl, &event, sizeof(event)));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->ctl, POLLIN));

	/* Nothing new opens */
	EXPECT_ERRNO(ENOENT, open(path, O_RDWR | O_CLOEXEC));
	alsa_pcm_path(path, sizeof(path), self->card, 0, false);
	EXPECT_ERRNO(ENOENT, open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK));
	EXPECT_ERRNO(ENODEV, open(self->node, O_RDWR | O_CLOEXEC));

	EXPECT_EQ(0, close(self->epfd));
	EXPECT_EQ(0, close(self->dupfd));
	EXPECT_EQ(0, close(self->play));
	EXPECT_EQ(0, close(self->cap));
	EXPECT_EQ(0, close(self->idle));
	EXPECT_EQ(0, close(self->ctl));
	self->epfd = self->dupfd = -1;
	self->play = self->cap = self->idle = self->ctl = -1;
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
}

/* Every file open, closed after the checks; the unbind may wait for it. */
TEST_F_TIMEOUT(dummy_gone, fds_after_unbind, 60)
{
	check_fds_after_unbind(_metadata, self, false);
}

/* The same files; the unbind returns while they are all still open. */
TEST_F_TIMEOUT(dummy_gone, unbind_returns_with_streams_running, 60)
{
	check_fds_after_unbind(_metadata, self, true);
}

/*
 * A playback stream with its status, control and data mapped, started
 * with only the first data page touched (0x11) and appl_ptr at the end
 * of the buffer.
 */
static void map_running_stream(struct __test_metadata *_metadata,
			       FIXTURE_DATA(dummy_gone) *self,
			       struct alsa_pcm_config *cfg)
{
	volatile struct snd_pcm_mmap_status *status;
	volatile struct snd_pcm_mmap_control *control;
	volatile unsigned char *data;

	self->play = alsa_pcm_open(self->card, 0, false, 0);
	ASSERT_LE(0, self->play) TH_LOG("%s", strerror(-self->play));
	ASSERT_EQ(0, alsa_pcm_hw_params(self->play, cfg));
	ASSERT_EQ(0, alsa_pcm_sw_params(self->play, cfg->period_frames,
					ALSA_NEVER, ALSA_NEVER));
	self->status = mmap(NULL, self->page, PROT_READ, MAP_SHARED,
			    self->play, SNDRV_PCM_MMAP_OFFSET_STATUS);
	ASSERT_NE(MAP_FAILED, self->status) TH_LOG("%s", strerror(errno));
	self->control = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
			     MAP_SHARED, self->play,
			     SNDRV_PCM_MMAP_OFFSET_CONTROL);
	ASSERT_NE(MAP_FAILED, self->control) TH_LOG("%s", strerror(errno));
	self->data_len = cfg->buffer_frames * cfg->frame_bytes;
	ASSERT_EQ(0UL, self->data_len % self->page);
	ASSERT_LT(self->page, self->data_len);
	self->data = mmap(NULL, self->data_len, PROT_READ | PROT_WRITE,
			  MAP_SHARED, self->play, SNDRV_PCM_MMAP_OFFSET_DATA);
	ASSERT_NE(MAP_FAILED, self->data) TH_LOG("%s", strerror(errno));
	status = self->status;
	control = self->control;
	data = self->data;

	ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
	ASSERT_EQ(SNDRV_PCM_STATE_PREPARED, status->state);
	/* Only the first data page is touched before the card goes */
	data[0] = 0x11;
	control->appl_ptr = cfg->buffer_frames;
	ASSERT_EQ(0, ioctl(self->play, SNDRV_PCM_IOCTL_START));
	ASSERT_EQ(SNDRV_PCM_STATE_RUNNING, status->state);
}

/*
 * The mappings and the fd after the disconnect, as 6.12 and this series
 * both have them: the status page reads SNDRV_PCM_STATE_DISCONNECTED,
 * control and data pages take writes and read them back, pages never
 * touched before fault in, and the fd answers as any other.
 */
static void check_mappings_after_unbind(struct __test_metadata *_metadata,
					FIXTURE_DATA(dummy_gone) *self)
{
	volatile struct snd_pcm_mmap_status *status = self->status;
	volatile struct snd_pcm_mmap_control *control = self->control;
	volatile unsigned char *data = self->data;
	struct snd_pcm_status pstatus;
	struct snd_pcm_sync_ptr sync;
	size_t off;

	EXPECT_EQ(SNDRV_PCM_STATE_DISCONNECTED, status->state);
	control->avail_min = 1;
	EXPECT_EQ(1UL, control->avail_min);
	for (off = 0; off < self->data_len; off += self->page) {
		data[off] = 0x5a;
		EXPECT_EQ(0x5a, data[off]) TH_LOG("data page at %zu", off);
	}

	memset(&sync, 0, sizeof(sync));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_SYNC_PTR,
				   &sync));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_HWSYNC));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_START));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_PREPARE));
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_STATUS,
				   &pstatus));
	EXPECT_ERRNO(ENODEV, mmap(NULL, self->page, PROT_READ, MAP_SHARED,
				  self->play, SNDRV_PCM_MMAP_OFFSET_STATUS));
	EXPECT_ERRNO(ENODEV, mmap(NULL, self->data_len,
				  PROT_READ | PROT_WRITE, MAP_SHARED,
				  self->play, SNDRV_PCM_MMAP_OFFSET_DATA));
	EXPECT_EQ(POLLERR, alsa_poll_now(self->play, POLLOUT));
}

/* close() leaves the mappings as they were; then they go too. */
static void close_then_unmap(struct __test_metadata *_metadata,
			     FIXTURE_DATA(dummy_gone) *self)
{
	volatile struct snd_pcm_mmap_status *status = self->status;
	volatile unsigned char *data = self->data;

	EXPECT_EQ(0, close(self->play));
	self->play = -1;
	EXPECT_EQ(SNDRV_PCM_STATE_DISCONNECTED, status->state);
	EXPECT_EQ(0x5a, data[self->data_len - self->page]);
	unmap(&self->data, self->data_len);
	unmap(&self->control, self->page);
	unmap(&self->status, self->page);
}

/*
 * mmap access: status, control and data mapped, stream running. After
 * the disconnect the mappings still read and write, before and after
 * close(). Which pages they map differs: on 6.12 still the card's, and
 * the mappings hold the file, and so the unbind, until munmap(); with
 * this series pages of their own (unbind_returns_with_mappings). So
 * nothing is read here that only one of them would have, and the card
 * comes back once everything is unmapped.
 */
TEST_F_TIMEOUT(dummy_gone, mmap_after_unbind, 60)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(true, 1024, 4096);

	map_running_stream(_metadata, self, &cfg);
	TAKE_CARD_AWAY();
	check_mappings_after_unbind(_metadata, self);

	close_then_unmap(_metadata, self);
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
}

/*
 * The same mappings with this series: the disconnect zaps them and
 * releases the file; the card is freed at once. A later touch faults in
 * a page that is not the card's: the status page reads
 * SNDRV_PCM_STATE_DISCONNECTED, control and data pages read zeroes and
 * keep what is written to them, and nothing crashes: not a fork that
 * copies the mappings, not an munmap long after the card is gone (KASAN
 * sees a use of the freed substream or runtime).
 */
TEST_F_TIMEOUT(dummy_gone, unbind_returns_with_mappings, 60)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(true, 1024, 4096);
	volatile struct snd_pcm_mmap_status *status;
	volatile struct snd_pcm_mmap_control *control;
	volatile unsigned char *data;
	int child_status;
	pid_t child;

	map_running_stream(_metadata, self, &cfg);
	status = self->status;
	control = self->control;
	data = self->data;

	TAKE_CARD_AWAY();
	EXPECT_UNBIND_RETURNED(&self->keeper, GONE_TIMEOUT_MS);

	/* The card's pages are gone from the mappings */
	EXPECT_EQ(0UL, control->appl_ptr);
	EXPECT_EQ(0, data[0]);
	check_mappings_after_unbind(_metadata, self);

	/* A new card comes while the old mappings live */
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);

	/* A fork copies the mappings (vm_ops ->open) and drops them */
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(status->state == SNDRV_PCM_STATE_DISCONNECTED &&
		      data[self->data_len - self->page] == 0x5a ? 0 : 1);
	ASSERT_EQ(child, waitpid(child, &child_status, 0));
	EXPECT_TRUE(WIFEXITED(child_status) && !WEXITSTATUS(child_status));

	close_then_unmap(_metadata, self);
}

/*
 * The unbind no longer waits in snd_card_free() for the files of the
 * card to be closed: the disconnect released them. The old fds still
 * answer ENODEV, and a new card binds and plays while they are open.
 */
TEST_F_TIMEOUT(dummy_gone, unbind_returns_with_files_open, 60)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 1024, 4096);
	struct snd_ctl_card_info info;
	long long start;

	self->ctl = alsa_ctl_open(self->card, 0);
	ASSERT_LE(0, self->ctl) TH_LOG("%s", strerror(-self->ctl));
	self->play = alsa_pcm_open(self->card, 0, false, 0);
	ASSERT_LE(0, self->play) TH_LOG("%s", strerror(-self->play));
	ASSERT_EQ(0, alsa_pcm_hw_params(self->play, &cfg));
	self->dupfd = dup(self->play);
	ASSERT_LE(0, self->dupfd);

	start = now_ms();
	TAKE_CARD_AWAY();
	EXPECT_UNBIND_RETURNED(&self->keeper, GONE_TIMEOUT_MS);
	/* The figure Documentation/sound/designs/card-disconnect.rst quotes */
	TH_LOG("unbind returned after %lld ms, two files open",
	       now_ms() - start);
	EXPECT_ERRNO(ENODEV, ioctl(self->dupfd, SNDRV_PCM_IOCTL_HWSYNC));
	EXPECT_ERRNO(ENODEV, ioctl(self->ctl, SNDRV_CTL_IOCTL_CARD_INFO,
				   &info));
	ASSERT_CARD_RECOVERS(&self->keeper, self->card);
	EXPECT_ERRNO(ENODEV, ioctl(self->play, SNDRV_PCM_IOCTL_HWSYNC));
	EXPECT_EQ(0, close(self->ctl));
	EXPECT_EQ(0, close(self->play));
	EXPECT_EQ(0, close(self->dupfd));
	self->ctl = self->play = self->dupfd = -1;
}

TEST_HARNESS_MAIN
