// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alsa-helpers.h"
#include "thread-state.h"

#define CARD_WAIT_MS		30000
#define REMOVAL_WAIT_MS		10000

void alsa_deadline_in(struct timespec *ts, int ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

int alsa_poll_now(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return poll(&pfd, 1, 0) == 1 ? pfd.revents : -1;
}

/* Copies [start, end) without the padding "%-15s" added. */
static void copy_trimmed(char *dst, size_t len, const char *start,
			 const char *end)
{
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	while (start < end && isspace((unsigned char)*start))
		start++;
	snprintf(dst, len, "%.*s", (int)(end - start), start);
}

/*
 * Walks /proc/asound/cards, whose card lines snd_card_info_read() prints
 * as "%2i [%-15s]: %s - %s" (number, id, driver, short name); the line
 * after each holds the long name. Returns the first card that matches
 * (card >= 0: that number; else id/driver), or -ENOENT.
 */
static int cards_scan(int card, const char *id, const char *driver)
{
	char line[256], cid[32], cdriver[32];
	const char *open, *close, *dash;
	int ret = -ENOENT, n;
	FILE *f;

	f = fopen("/proc/asound/cards", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strlen(line) < 5 || line[2] != ' ' || line[3] != '[' ||
		    !isdigit((unsigned char)line[1]))
			continue;
		n = atoi(line);
		open = line + 3;
		close = strstr(open, "]: ");
		if (!close)
			continue;
		dash = strstr(close + 3, " - ");
		if (!dash)
			continue;
		copy_trimmed(cid, sizeof(cid), open + 1, close);
		copy_trimmed(cdriver, sizeof(cdriver), close + 3, dash);
		if ((card >= 0 && n == card) ||
		    (card < 0 && ((id && !strcmp(cid, id)) ||
				  (driver && !strcmp(cdriver, driver))))) {
			ret = n;
			break;
		}
	}
	fclose(f);
	return ret;
}

int alsa_card_find(const char *id, const char *driver)
{
	return cards_scan(-1, id, driver);
}

int alsa_card_wait(const char *id, const char *driver, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	int card;

	for (;;) {
		card = alsa_card_find(id, driver);
		if (card >= 0)
			return card;
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(50);
	}
}

bool alsa_card_wait_gone(int card, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	for (;;) {
		if (cards_scan(card, NULL, NULL) == -ENOENT)
			return true;
		if (now_ms() > end)
			return false;
		sleep_ms(50);
	}
}

void alsa_pcm_path(char *buf, size_t len, int card, int device, bool capture)
{
	snprintf(buf, len, "/dev/snd/pcmC%dD%d%c", card, device,
		 capture ? 'c' : 'p');
}

int alsa_pcm_open(int card, int device, bool capture, int flags)
{
	int fd, version = SNDRV_PCM_VERSION;
	char path[64];

	alsa_pcm_path(path, sizeof(path), card, device, capture);
	fd = open(path, O_RDWR | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SNDRV_PCM_IOCTL_USER_PVERSION, &version)) {
		version = -errno;
		close(fd);
		return version;
	}
	return fd;
}

int alsa_ctl_open(int card, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/snd/controlC%d", card);
	fd = open(path, O_RDWR | O_CLOEXEC | flags);
	return fd < 0 ? -errno : fd;
}

static struct snd_mask *hw_mask(struct snd_pcm_hw_params *p, int param)
{
	return &p->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];
}

static struct snd_interval *hw_interval(struct snd_pcm_hw_params *p,
					int param)
{
	return &p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}

static void hw_mask_only(struct snd_pcm_hw_params *p, int param,
			 unsigned int bit)
{
	struct snd_mask *m = hw_mask(p, param);

	memset(m, 0, sizeof(*m));
	m->bits[bit / 32] = 1U << (bit % 32);
}

static void hw_interval_only(struct snd_pcm_hw_params *p, int param,
			     unsigned int val)
{
	struct snd_interval *i = hw_interval(p, param);

	i->min = i->max = val;
	i->integer = 1;
}

int alsa_pcm_hw_params(int fd, struct alsa_pcm_config *cfg)
{
	struct snd_pcm_hw_params p;
	int i;

	/* Everything allowed, as alsa-lib's snd_pcm_hw_params_any() */
	memset(&p, 0, sizeof(p));
	for (i = SNDRV_PCM_HW_PARAM_FIRST_MASK;
	     i <= SNDRV_PCM_HW_PARAM_LAST_MASK; i++)
		memset(hw_mask(&p, i), 0xff, sizeof(struct snd_mask));
	for (i = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL;
	     i <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; i++)
		hw_interval(&p, i)->max = UINT_MAX;
	p.rmask = ~0U;
	p.info = ~0U;

	hw_mask_only(&p, SNDRV_PCM_HW_PARAM_ACCESS, cfg->access);
	hw_mask_only(&p, SNDRV_PCM_HW_PARAM_FORMAT, cfg->format);
	hw_mask_only(&p, SNDRV_PCM_HW_PARAM_SUBFORMAT,
		     SNDRV_PCM_SUBFORMAT_STD);
	hw_interval_only(&p, SNDRV_PCM_HW_PARAM_CHANNELS, cfg->channels);
	hw_interval_only(&p, SNDRV_PCM_HW_PARAM_RATE, cfg->rate);
	if (cfg->period_frames)
		hw_interval_only(&p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE,
				 cfg->period_frames);
	if (cfg->buffer_frames)
		hw_interval_only(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE,
				 cfg->buffer_frames);

	if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p))
		return -errno;
	/* The kernel copies back the single configuration it chose */
	cfg->period_frames = hw_interval(&p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE)->min;
	cfg->buffer_frames = hw_interval(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->min;
	cfg->frame_bytes = hw_interval(&p, SNDRV_PCM_HW_PARAM_FRAME_BITS)->min / 8;
	return cfg->frame_bytes ? 0 : -EINVAL;
}

int alsa_pcm_sw_params(int fd, unsigned long avail_min,
		       unsigned long start_threshold,
		       unsigned long stop_threshold)
{
	struct snd_pcm_sw_params sw;

	memset(&sw, 0, sizeof(sw));
	sw.tstamp_mode = SNDRV_PCM_TSTAMP_NONE;
	sw.period_step = 1;
	sw.proto = SNDRV_PCM_VERSION;
	sw.avail_min = avail_min;
	sw.start_threshold = start_threshold;
	sw.stop_threshold = stop_threshold;
	/* A first call only to learn the boundary, which it sets */
	if (start_threshold == ALSA_NEVER || stop_threshold == ALSA_NEVER) {
		sw.start_threshold = sw.stop_threshold = 1;
		if (ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw))
			return -errno;
		sw.start_threshold = start_threshold == ALSA_NEVER ?
				     sw.boundary : start_threshold;
		sw.stop_threshold = stop_threshold == ALSA_NEVER ?
				    sw.boundary : stop_threshold;
	}
	return ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw) ? -errno : 0;
}

int alsa_pcm_state(int fd)
{
	struct snd_pcm_status st;

	memset(&st, 0, sizeof(st));
	if (ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st))
		return -errno;
	return st.state;
}

/* One read() or write() of @frames frames through a zeroed buffer. */
static ssize_t alsa_pcm_transfer(int fd, const struct alsa_pcm_config *cfg,
				 unsigned long frames, bool to_card)
{
	size_t len = frames * cfg->frame_bytes;
	void *buf = calloc(1, len);
	ssize_t ret;

	if (!buf)
		return -ENOMEM;
	ret = to_card ? write(fd, buf, len) : read(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	free(buf);
	return ret;
}

ssize_t alsa_pcm_write_silence(int fd, const struct alsa_pcm_config *cfg,
			       unsigned long frames)
{
	return alsa_pcm_transfer(fd, cfg, frames, true);
}

ssize_t alsa_pcm_read_frames(int fd, const struct alsa_pcm_config *cfg,
			     unsigned long frames)
{
	return alsa_pcm_transfer(fd, cfg, frames, false);
}

int alsa_check_playback(int card, const char **step)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 1024, 4096);
	struct snd_pcm_status st;
	long long end;
	ssize_t n;
	int fd, ret;

	*step = "open";
	fd = alsa_pcm_open(card, 0, false, 0);
	if (fd < 0)
		return fd;
	*step = "hw_params";
	ret = alsa_pcm_hw_params(fd, &cfg);
	if (ret)
		goto out;
	*step = "prepare";
	if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE)) {
		ret = -errno;
		goto out;
	}
	*step = "write";
	n = alsa_pcm_write_silence(fd, &cfg, cfg.buffer_frames);
	if (n != (ssize_t)(cfg.buffer_frames * cfg.frame_bytes)) {
		ret = n < 0 ? n : -EIO;
		goto out;
	}
	/* It plays once the hardware pointer moves (it may underrun after) */
	*step = "hw_ptr moving";
	end = now_ms() + 5000;
	for (;;) {
		memset(&st, 0, sizeof(st));
		if (ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st)) {
			ret = -errno;
			goto out;
		}
		if (st.hw_ptr > 0)
			break;
		if (now_ms() > end) {
			ret = -ETIMEDOUT;
			goto out;
		}
		sleep_ms(20);
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* The keeper */

int alsa_sysfs_write(const char *path, const char *val)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(val))
		ret = -EIO;
	close(fd);
	return ret;
}

static int dummy_take_away(void)
{
	/* Returns once snd_card_free() is through */
	return alsa_sysfs_write(ALSA_DUMMY_DRIVER_DIR "/unbind", ALSA_DUMMY_DEVICE);
}

static int dummy_bring_back(void)
{
	if (!access(ALSA_DUMMY_DRIVER_DIR "/" ALSA_DUMMY_DEVICE, F_OK))
		return 0;
	return alsa_sysfs_write(ALSA_DUMMY_DRIVER_DIR "/bind", ALSA_DUMMY_DEVICE);
}

const struct alsa_keeper_ops alsa_keeper_dummy = {
	.name = "snd-dummy",
	.card_id = ALSA_DUMMY_ID,
	.take_away = dummy_take_away,
	.bring_back = dummy_bring_back,
};

static int keeper_card(const struct alsa_keeper_ops *ops, int timeout_ms)
{
	int card = alsa_card_wait(ops->card_id, ops->card_driver, timeout_ms);

	if (card < 0 || !ops->settle)
		return card;
	return ops->settle(card, timeout_ms);
}

static void __attribute__((__noreturn__)) keeper_main(const struct alsa_keeper_ops *ops,
						  int sock)
{
	bool away = false;
	ssize_t n;
	char cmd;
	int ret;

	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		n = read(sock, &cmd, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		switch (cmd) {
		case 'r':
			away = true;
			ret = ops->take_away();
			break;
		case 'b':
			ret = ops->bring_back();
			if (!ret)
				away = false;
			break;
		default:
			ret = -EINVAL;
		}
		if (write(sock, &ret, sizeof(ret)) != sizeof(ret))
			break;
	}
	/* The test is gone: put the card back as the next one expects it */
	if (away) {
		/* A device_del may still be on its way: let it land first */
		ret = alsa_card_find(ops->card_id, ops->card_driver);
		if (ops->removal_is_async && ret >= 0)
			alsa_card_wait_gone(ret, REMOVAL_WAIT_MS);
		ops->bring_back();
	}
	_exit(0);
}

int alsa_keeper_start(struct alsa_keeper *k, const struct alsa_keeper_ops *ops)
{
	int sv[2], card;
	pid_t pid;

	k->ops = ops;
	k->pid = 0;
	k->sock = -1;
	k->pending = 0;
	card = keeper_card(ops, CARD_WAIT_MS);
	if (card < 0)
		return card;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* Nothing of the test but its output */
		if (sv[1] > 3)
			close_range(3, sv[1] - 1, 0);
		close_range(sv[1] + 1, ~0U, 0);
		keeper_main(ops, sv[1]);
	}
	close(sv[1]);
	k->pid = pid;
	k->sock = sv[0];
	return card;
}

static int keeper_send(struct alsa_keeper *k, char cmd)
{
	if (k->sock < 0)
		return -EBADF;
	return send(k->sock, &cmd, 1, MSG_NOSIGNAL) == 1 ? 0 : -errno;
}

static int keeper_answer(struct alsa_keeper *k, int timeout_ms)
{
	struct pollfd pfd = { .fd = k->sock, .events = POLLIN };
	ssize_t n;
	int ret;

	if (k->sock < 0)
		return -EBADF;
	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ETIMEDOUT;
	n = recv(k->sock, &ret, sizeof(ret), MSG_WAITALL);
	if (n != sizeof(ret))
		return -EPIPE;
	return ret;
}

int alsa_keeper_remove(struct alsa_keeper *k)
{
	int ret = keeper_send(k, 'r');

	if (!ret)
		k->pending++;
	return ret;
}

int alsa_keeper_removed(struct alsa_keeper *k, int timeout_ms)
{
	int ret;

	if (!k->pending)
		return -EINVAL;
	ret = keeper_answer(k, timeout_ms);
	if (ret != -ETIMEDOUT)
		k->pending--;
	return ret;
}

int alsa_keeper_bring_back(struct alsa_keeper *k, int old_card,
			   const char **step)
{
	int ret;

	while (k->pending) {
		*step = "removal finishing once the card's files are closed";
		ret = alsa_keeper_removed(k, REMOVAL_WAIT_MS);
		if (ret)
			return ret;
	}
	*step = "old card leaving /proc/asound/cards";
	if (!alsa_card_wait_gone(old_card, REMOVAL_WAIT_MS))
		return -ETIMEDOUT;
	*step = "bringing the card back";
	ret = keeper_send(k, 'b');
	if (!ret)
		ret = keeper_answer(k, REMOVAL_WAIT_MS);
	if (ret)
		return ret;
	*step = "card back in /proc/asound/cards";
	return keeper_card(k->ops, CARD_WAIT_MS);
}

int alsa_keeper_recover(struct alsa_keeper *k, int old_card,
			const char **step)
{
	int card = alsa_keeper_bring_back(k, old_card, step);

	if (card < 0)
		return card;
	return alsa_check_playback(card, step);
}

void alsa_keeper_stop(struct alsa_keeper *k, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	if (k->sock >= 0)
		close(k->sock);
	k->sock = -1;
	if (k->pid <= 0)
		return;
	/* Left running past the timeout, it still finishes on its own */
	while (waitpid(k->pid, NULL, WNOHANG) == 0 && now_ms() < end)
		sleep_ms(50);
	k->pid = 0;
}
