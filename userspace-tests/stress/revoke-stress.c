// SPDX-License-Identifier: GPL-2.0
/*
 * revoke-stress: for STRESS_SECONDS (default 180), threads that open,
 * read, write, poll, epoll, ioctl, splice, io_uring, mmap and close ptys,
 * serial ports and the PCM and control devices of snd-dummy and of QEMU's
 * USB audio, against threads that revoke them every way there is:
 * TIOCVHANGUP, vhangup(), revokeat() of a tty or of a sound card, the
 * unbind of snd-dummy and the unplug of the USB device.
 *
 * Any call may fail in any way a revoked or hung-up file fails; what must
 * not happen is a call that never returns, a process that SIGKILL does not
 * end, or a kernel splat (the runner watches the log for those, hung tasks
 * included). The stress runs in a child process; this one judges it:
 *
 *	ok 1	no worker went STUCK_SECONDS without finishing a call
 *	ok 2	the stress process ended on SIGKILL within KILL_WAIT_SECONDS
 *	ok 3	revokes were done, and each kind of file was found revoked
 *
 * and prints the counts: revokes of each kind, calls made, fds found
 * revoked.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "alsa-helpers.h"
#include "alsa-usb.h"
#include "revokeat.h"
#include "settings.h"
#include "thread-state.h"

#define DEFAULT_SECONDS		180
#define STUCK_SECONDS		60
#define KILL_WAIT_SECONDS	30
#define PTY_SLOTS		4
#define MAX_WORKERS		16
#define N_HDLC_LDISC		13

enum revoke_kind {
	RK_TIOCVHANGUP, RK_VHANGUP, RK_TTY_REVOKEAT, RK_CARD_REVOKEAT,
	RK_UNBIND, RK_UNPLUG, NR_REVOKE_KINDS
};

static const char *const revoke_names[NR_REVOKE_KINDS] = {
	"TIOCVHANGUP", "vhangup", "tty revokeat", "card revokeat",
	"snd-dummy unbind", "USB unplug",
};

enum target { T_PTY, T_SERIAL, T_PCM, T_CTL, NR_TARGETS };

static const char *const target_names[NR_TARGETS] = {
	"pty", "serial", "PCM", "control",
};

/* Shared with the judging parent. */
struct stress_stats {
	long long revokes[NR_REVOKE_KINDS];
	long long calls;
	long long found_revoked[NR_TARGETS];
	long long heartbeat_ms[MAX_WORKERS];
	int target[MAX_WORKERS];
	int nr_workers;
	int done;
};

static struct stress_stats *stats;
/*
 * The workers stop first: a tty read may sleep until the next hangup, so
 * the revokers and the pty keeper go on until every worker is out.
 */
static int stop_workers, stop_revokers;

static bool stopping(const int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

static void count(long long *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* ptys made by the pty keeper; the masters drain what the slaves write */
static struct {
	pthread_mutex_t lock;
	char path[PTY_SLOTS][32];
	int master[PTY_SLOTS];
} ptys = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int pick_pty(char *path, size_t len)
{
	int i = rand() % PTY_SLOTS;

	pthread_mutex_lock(&ptys.lock);
	snprintf(path, len, "%s", ptys.path[i]);
	pthread_mutex_unlock(&ptys.lock);
	return path[0] ? 0 : -ENOENT;
}

static int new_pty(int slot)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
	char *name;

	if (master < 0)
		return -errno;
	if (grantpt(master) || unlockpt(master) || !(name = ptsname(master))) {
		close(master);
		return -EIO;
	}
	pthread_mutex_lock(&ptys.lock);
	if (ptys.master[slot] >= 0)
		close(ptys.master[slot]);
	ptys.master[slot] = master;
	snprintf(ptys.path[slot], sizeof(ptys.path[slot]), "%s", name);
	pthread_mutex_unlock(&ptys.lock);
	return 0;
}

/* Keeps PTY_SLOTS ptys, replaces one now and then, drains the masters. */
static void *pty_keeper_main(void *arg)
{
	char buf[4096];
	int i, n = 0;

	while (!stopping(&stop_revokers)) {
		if (++n % 200 == 0)
			new_pty(rand() % PTY_SLOTS);
		pthread_mutex_lock(&ptys.lock);
		for (i = 0; i < PTY_SLOTS; i++) {
			if (read(ptys.master[i], buf, sizeof(buf)) < 0 &&
			    errno != EAGAIN && errno != EIO)
				break;
			if (write(ptys.master[i], "stress\n", 7) < 0 &&
			    errno != EAGAIN)
				break;
		}
		pthread_mutex_unlock(&ptys.lock);
		usleep(5000);
	}
	return NULL;
}

/*
 * Set while the USB card is there and settled: a prepare on a USB card
 * that the USB core is still adding interfaces to races it in sysfs (see
 * usb_card_settle() in alsa-helpers.c), a bug outside revoke.
 */
static int usb_ready = 1;

static int card_of(bool usb)
{
	if (usb && !__atomic_load_n(&usb_ready, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	return usb ? alsa_card_find(NULL, ALSA_USB_DRIVER) :
		     alsa_card_find(ALSA_DUMMY_ID, NULL);
}

struct worker {
	int id;
	enum target target;
	bool usb;		/* sound: the USB card, else snd-dummy */
	const char *serial;	/* T_SERIAL: its node */
	int fd;
	int epfd;
	int pipe[2];
	struct io_uring ring;
	struct alsa_pcm_config cfg;
	pthread_t thread;
};

static void beat(struct worker *w)
{
	__atomic_store_n(&stats->heartbeat_ms[w->id], now_ms(),
			 __ATOMIC_RELAXED);
	count(&stats->calls);
}

static int worker_open(struct worker *w)
{
	char path[64];
	int card, fd;

	switch (w->target) {
	case T_PTY:
		if (pick_pty(path, sizeof(path)))
			return -ENOENT;
		/* blocking: reads sleep until data or the hangup comes */
		return open(path, O_RDWR | O_NOCTTY | (rand() % 2 ? O_NONBLOCK : 0));
	case T_SERIAL:
		fd = open(w->serial, O_RDWR | O_NOCTTY | O_NONBLOCK);
		return fd < 0 ? -errno : fd;
	case T_PCM:
		card = card_of(w->usb);
		fd = card < 0 ? card : alsa_pcm_open(card, 0, false, O_NONBLOCK);
		/* half of them blocking: writes sleep for room in the buffer */
		if (fd >= 0 && rand() % 2)
			fcntl(fd, F_SETFL, 0);
		return fd;
	case T_CTL:
		card = card_of(w->usb);
		return card < 0 ? card : alsa_ctl_open(card, O_NONBLOCK);
	case NR_TARGETS:
		break;
	}
	return -EINVAL;
}

/* Whether a failed call says that the file was revoked. */
static bool revoked_errno(enum target t, int err)
{
	if (t == T_PTY || t == T_SERIAL)
		return err == EIO;
	return err == ENODEV;
}

/* io_uring: a read that is cancelled if nothing comes within 20 ms. */
static int uring_read(struct worker *w, void *buf, size_t len)
{
	struct __kernel_timespec ts = { .tv_nsec = 20 * 1000000L };
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int ret, res = -ECANCELED, pending = 1;

	sqe = io_uring_get_sqe(&w->ring);
	if (!sqe)
		return -EBUSY;
	io_uring_prep_read(sqe, w->fd, buf, len, 0);
	sqe->user_data = 1;
	io_uring_submit(&w->ring);
	if (io_uring_wait_cqe_timeout(&w->ring, &cqe, &ts) == -ETIME) {
		sqe = io_uring_get_sqe(&w->ring);
		if (!sqe)
			return -EBUSY;
		io_uring_prep_cancel64(sqe, 1, 0);
		sqe->user_data = 2;
		io_uring_submit(&w->ring);
		pending = 2;
	}
	/* the read's completion, and the cancel's if there was one */
	for (; pending; pending--) {
		ret = io_uring_wait_cqe(&w->ring, &cqe);
		if (ret)
			return ret;
		if (cqe->user_data == 1)
			res = cqe->res;
		io_uring_cqe_seen(&w->ring, cqe);
	}
	return res;
}

/* One call on a tty; false once the file is found hung up. */
static bool tty_step(struct worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN | POLLOUT };
	struct termios t;
	char buf[256];
	int ldisc, queued;
	ssize_t n = 0;

	switch (rand() % 9) {
	case 0:
		n = read(w->fd, buf, sizeof(buf));
		if (n == 0)
			return false;	/* a hung-up tty reads end of file */
		break;
	case 1:
		n = write(w->fd, "stress\n", 7);
		break;
	case 2:
		if (poll(&pfd, 1, 20) == 1 && pfd.revents & POLLHUP)
			return false;
		break;
	case 3:
		epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->fd, &ev);
		if (epoll_wait(w->epfd, &ev, 1, 20) == 1 &&
		    ev.events & EPOLLHUP)
			n = -1, errno = EIO;
		epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->fd, NULL);
		break;
	case 4:
		if (tcgetattr(w->fd, &t) == 0)
			n = tcsetattr(w->fd, TCSANOW, &t);
		else
			n = -1;
		break;
	case 5:
		n = ioctl(w->fd, TIOCOUTQ, &queued);
		if (n == 0)
			n = tcflush(w->fd, TCIOFLUSH);
		break;
	case 6:
		n = ioctl(w->fd, TIOCGETD, &ldisc);
		if (n == 0) {
			ldisc = ldisc == N_TTY ? N_HDLC_LDISC : N_TTY;
			n = ioctl(w->fd, TIOCSETD, &ldisc);
		}
		break;
	case 7:
		n = splice(w->fd, NULL, w->pipe[1], NULL, sizeof(buf),
			   SPLICE_F_NONBLOCK);
		if (n == 0)
			return false;
		if (read(w->pipe[0], buf, sizeof(buf)) < 0 && errno != EAGAIN)
			n = -1;
		break;
	case 8:
		n = uring_read(w, buf, sizeof(buf));
		if (n == 0)
			return false;
		if (n < 0)
			errno = -n, n = -1;
		break;
	}
	return !(n < 0 && revoked_errno(w->target, errno));
}

static int pcm_setup(struct worker *w)
{
	bool mmap_access = rand() % 2;
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(mmap_access, 1024, 4096);
	int ret;

	ret = alsa_pcm_hw_params(w->fd, &cfg);
	if (ret)
		return ret;
	w->cfg = cfg;
	if (ioctl(w->fd, SNDRV_PCM_IOCTL_PREPARE))
		return -errno;
	return 0;
}

/* Touches the status page, and the buffer of an mmap stream. */
static int pcm_mmap_touch(struct worker *w)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t len = w->cfg.buffer_frames * w->cfg.frame_bytes;
	volatile char *p;
	void *map;

	map = mmap(NULL, page, PROT_READ, MAP_SHARED, w->fd,
		   SNDRV_PCM_MMAP_OFFSET_STATUS);
	if (map == MAP_FAILED)
		return -errno;
	p = map;
	(void)p[0];
	munmap(map, page);
	if (w->cfg.access != SNDRV_PCM_ACCESS_MMAP_INTERLEAVED || !len)
		return 0;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd,
		   SNDRV_PCM_MMAP_OFFSET_DATA);
	if (map == MAP_FAILED)
		return -errno;
	p = map;
	p[0] = 0;
	munmap(map, len);
	return 0;
}

/* One call on a PCM file; false once it is found revoked. */
static bool pcm_step(struct worker *w)
{
	struct pollfd pfd = { .fd = w->fd, .events = POLLOUT };
	struct snd_pcm_status st;
	int ret = 0;

	switch (rand() % 8) {
	case 0:
		ret = pcm_setup(w);
		break;
	case 1:
		if (w->cfg.frame_bytes)
			ret = alsa_pcm_write_silence(w->fd, &w->cfg,
						     w->cfg.period_frames);
		break;
	case 2:
		ret = ioctl(w->fd, SNDRV_PCM_IOCTL_STATUS, &st) ? -errno : 0;
		break;
	case 3:
		ret = ioctl(w->fd, SNDRV_PCM_IOCTL_HWSYNC) ? -errno : 0;
		break;
	case 4:
		if (poll(&pfd, 1, 20) == 1 && pfd.revents & POLLERR &&
		    alsa_pcm_state(w->fd) == -ENODEV)
			return false;
		break;
	case 5:
		if (w->cfg.frame_bytes)
			ret = pcm_mmap_touch(w);
		break;
	case 6:
		ret = ioctl(w->fd, SNDRV_PCM_IOCTL_DROP) ? -errno : 0;
		break;
	case 7:
		ret = ioctl(w->fd, SNDRV_PCM_IOCTL_HW_FREE) ? -errno : 0;
		w->cfg.frame_bytes = 0;
		break;
	}
	return !(ret < 0 && revoked_errno(T_PCM, -ret));
}

/* One call on a control file; false once it is found revoked. */
static bool ctl_step(struct worker *w)
{
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
	struct snd_ctl_card_info info;
	struct snd_ctl_elem_list list = { 0 };
	struct snd_ctl_event ev;
	int on = 1, ret = 0;

	switch (rand() % 4) {
	case 0:
		ret = ioctl(w->fd, SNDRV_CTL_IOCTL_CARD_INFO, &info);
		break;
	case 1:
		ret = ioctl(w->fd, SNDRV_CTL_IOCTL_ELEM_LIST, &list);
		break;
	case 2:
		ret = ioctl(w->fd, SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS, &on);
		if (!ret && read(w->fd, &ev, sizeof(ev)) < 0 && errno != EAGAIN)
			ret = -1;
		break;
	case 3:
		if (poll(&pfd, 1, 20) == 1 && pfd.revents & POLLERR)
			return false;
		break;
	}
	return !(ret < 0 && revoked_errno(T_CTL, errno));
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	bool live;
	int calls;

	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (pipe2(w->pipe, O_NONBLOCK | O_CLOEXEC) ||
	    io_uring_queue_init(4, &w->ring, 0))
		return NULL;
	while (!stopping(&stop_workers)) {
		beat(w);
		w->fd = worker_open(w);
		if (w->fd < 0) {
			usleep(10000);	/* the device is away for now */
			continue;
		}
		memset(&w->cfg, 0, sizeof(w->cfg));
		live = true;
		for (calls = rand() % 64; live && calls > 0 && !stopping(&stop_workers); calls--) {
			beat(w);
			switch (w->target) {
			case T_PTY:
			case T_SERIAL:
				live = tty_step(w);
				break;
			case T_PCM:
				live = pcm_step(w);
				break;
			case T_CTL:
				live = ctl_step(w);
				break;
			case NR_TARGETS:
				break;
			}
		}
		if (!live)
			count(&stats->found_revoked[w->target]);
		close(w->fd);
	}
	return NULL;
}

static void revoke_tty(const char *path)
{
	int fd, how = rand() % 16;
	pid_t pid;

	if (how == 0) {
		/* vhangup() needs the tty as the controlling tty */
		pid = fork();
		if (pid == 0) {
			/* the hangup signals the session leader: us */
			signal(SIGHUP, SIG_IGN);
			setsid();
			fd = open(path, O_RDWR | O_NONBLOCK);
			_exit(fd < 0 || ioctl(fd, TIOCSCTTY, 1) || vhangup());
		}
		if (pid > 0 && waitpid(pid, &fd, 0) == pid &&
		    WIFEXITED(fd) && WEXITSTATUS(fd) == 0)
			count(&stats->revokes[RK_VHANGUP]);
	} else if (how < 8) {
		fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd >= 0 && ioctl(fd, TIOCVHANGUP) == 0)
			count(&stats->revokes[RK_TIOCVHANGUP]);
		if (fd >= 0)
			close(fd);
	} else if (sys_revokeat(AT_FDCWD, path, 0) == 0) {
		count(&stats->revokes[RK_TTY_REVOKEAT]);
	}
}

static void *tty_revoker_main(void *arg)
{
	char path[64];

	while (!stopping(&stop_revokers)) {
		if (rand() % 4 == 0)
			snprintf(path, sizeof(path), "/dev/ttyS%d",
				 1 + rand() % 2);
		else if (pick_pty(path, sizeof(path)))
			continue;
		revoke_tty(path);
		usleep(rand() % 500);
	}
	return NULL;
}

static void *card_revoker_main(void *arg)
{
	char path[64];
	int card;

	while (!stopping(&stop_revokers)) {
		card = card_of(rand() % 4 == 0);
		if (card >= 0) {
			alsa_pcm_path(path, sizeof(path), card, 0, false);
			if (sys_revokeat(AT_FDCWD, path, 0) == 0)
				count(&stats->revokes[RK_CARD_REVOKEAT]);
		}
		usleep(20000 + rand() % 30000);
	}
	return NULL;
}

struct cycler {
	struct alsa_keeper keeper;
	enum revoke_kind kind;
	int pause_ms;
	pthread_t thread;
};

/* Takes the card away and brings it back, pause_ms apart. */
static void *cycler_main(void *arg)
{
	struct cycler *c = arg;
	const char *step;
	int card;

	while (!stopping(&stop_revokers)) {
		sleep_ms(c->pause_ms);
		card = card_of(c->kind == RK_UNPLUG);
		if (card < 0)
			continue;
		if (c->kind == RK_UNPLUG)
			__atomic_store_n(&usb_ready, 0, __ATOMIC_RELEASE);
		if (alsa_keeper_remove(&c->keeper) ||
		    alsa_keeper_removed(&c->keeper, 10000))
			continue;
		count(&stats->revokes[c->kind]);
		if (alsa_keeper_bring_back(&c->keeper, card, &step) < 0)
			fprintf(stderr, "# card not back: %s\n", step);
		else if (c->kind == RK_UNPLUG)
			/* alsa-helpers waited for it to settle */
			__atomic_store_n(&usb_ready, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static int stress_seconds(void)
{
	return suite_setting("STRESS_SECONDS", DEFAULT_SECONDS);
}

static struct worker workers[MAX_WORKERS];

static int add_worker(enum target t, bool usb, const char *serial)
{
	struct worker *w = &workers[stats->nr_workers];

	w->id = stats->nr_workers++;
	w->target = t;
	w->usb = usb;
	w->serial = serial;
	stats->target[w->id] = t;
	stats->heartbeat_ms[w->id] = now_ms();
	return pthread_create(&w->thread, NULL, worker_main, w);
}

/* The stress itself, in the child; the parent ends it with SIGKILL. */
static void __attribute__((noreturn)) stress_main(int seconds)
{
	struct cycler dummy = { .kind = RK_UNBIND, .pause_ms = 3000 };
	struct cycler usb = { .kind = RK_UNPLUG, .pause_ms = 8000 };
	pthread_t keeper, tty_revoker[2], card_revoker;
	int i;

	/* the keepers are forked before any file of the cards is open */
	if (alsa_keeper_start(&dummy.keeper, &alsa_keeper_dummy) < 0 ||
	    alsa_keeper_start(&usb.keeper, &alsa_keeper_usb) < 0)
		_exit(2);
	for (i = 0; i < PTY_SLOTS; i++) {
		ptys.master[i] = -1;
		if (new_pty(i))
			_exit(2);
	}
	pthread_create(&keeper, NULL, pty_keeper_main, NULL);
	for (i = 0; i < 4; i++)
		add_worker(T_PTY, false, NULL);
	add_worker(T_SERIAL, false, "/dev/ttyS1");
	add_worker(T_SERIAL, false, "/dev/ttyS2");
	for (i = 0; i < 3; i++)
		add_worker(T_PCM, false, NULL);
	add_worker(T_CTL, false, NULL);
	add_worker(T_PCM, true, NULL);
	add_worker(T_CTL, true, NULL);
	for (i = 0; i < 2; i++)
		pthread_create(&tty_revoker[i], NULL, tty_revoker_main, NULL);
	pthread_create(&card_revoker, NULL, card_revoker_main, NULL);
	pthread_create(&dummy.thread, NULL, cycler_main, &dummy);
	pthread_create(&usb.thread, NULL, cycler_main, &usb);

	sleep(seconds);
	__atomic_store_n(&stop_workers, 1, __ATOMIC_RELEASE);
	for (i = 0; i < stats->nr_workers; i++)
		pthread_join(workers[i].thread, NULL);
	__atomic_store_n(&stop_revokers, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(tty_revoker[i], NULL);
	pthread_join(card_revoker, NULL);
	pthread_join(dummy.thread, NULL);
	pthread_join(usb.thread, NULL);
	pthread_join(keeper, NULL);
	alsa_keeper_stop(&dummy.keeper, 30000);
	alsa_keeper_stop(&usb.keeper, 30000);
	__atomic_store_n(&stats->done, 1, __ATOMIC_RELEASE);
	/* wait for the parent's SIGKILL, which must end us */
	for (;;)
		pause();
}

/* The worker that went longest without a call, and how long (ms). */
static long long longest_silence(int *who)
{
	long long now = now_ms(), worst = 0, quiet;
	int i;

	for (i = 0; i < __atomic_load_n(&stats->nr_workers, __ATOMIC_ACQUIRE); i++) {
		quiet = now - __atomic_load_n(&stats->heartbeat_ms[i],
					      __ATOMIC_RELAXED);
		if (quiet > worst) {
			worst = quiet;
			*who = i;
		}
	}
	return worst;
}

static bool reaped_within(pid_t pid, int seconds)
{
	long long end = now_ms() + seconds * 1000LL;

	while (now_ms() < end) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return true;
		sleep_ms(100);
	}
	return false;
}

int main(void)
{
	int seconds = stress_seconds(), who = 0, i, t;
	long long end, quiet, worst = 0, revokes = 0;
	bool every_target = true, stuck, unkillable;
	pid_t pid;

	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED)
		return 1;
	printf("1..3\n# stress for %d s\n", seconds);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		stress_main(seconds);
	if (pid < 0)
		return 1;

	/* watch for a worker that stops coming back from its calls */
	end = now_ms() + (seconds + STUCK_SECONDS) * 1000LL;
	while (!__atomic_load_n(&stats->done, __ATOMIC_ACQUIRE) &&
	       now_ms() < end) {
		sleep_ms(1000);
		quiet = longest_silence(&who);
		if (quiet > worst)
			worst = quiet;
		if (quiet > STUCK_SECONDS * 1000LL)
			break;
	}
	stuck = worst > STUCK_SECONDS * 1000LL || !stats->done;
	printf("%sok 1 no call took %d s (longest: %lld ms, %s worker %d)\n",
	       stuck ? "not " : "", STUCK_SECONDS, worst,
	       target_names[stats->target[who]], who);
	fflush(stdout);

	kill(pid, SIGKILL);
	unkillable = !reaped_within(pid, KILL_WAIT_SECONDS);
	printf("%sok 2 the stress process ends on SIGKILL\n",
	       unkillable ? "not " : "");

	for (i = 0; i < NR_REVOKE_KINDS; i++) {
		revokes += stats->revokes[i];
		printf("# %-16s %lld\n", revoke_names[i], stats->revokes[i]);
	}
	for (t = 0; t < NR_TARGETS; t++) {
		printf("# %s files found revoked: %lld\n", target_names[t],
		       stats->found_revoked[t]);
		every_target &= stats->found_revoked[t] > 0;
	}
	printf("# stress: %d s, %lld revokes, %lld calls\n", seconds, revokes,
	       stats->calls);
	every_target &= revokes > 0;
	printf("%sok 3 revokes done and every kind of file found revoked\n",
	       every_target ? "" : "not ");
	return stuck || unkillable || !every_target;
}
