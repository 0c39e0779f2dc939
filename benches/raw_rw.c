/*
 * raw_rw.c: the "raw syscall loop" reference for benches/ior_vs_fio.sh.
 *
 * JOBS threads, one file per thread (DIR/raw.<thread>). Write phase: every thread opens its
 * file (O_CREAT|O_RDWR, after removing any old one), writes SIZE bytes in BS-byte pwrite calls
 * from one buffer filled once with pseudo-random data, fsyncs, closes. Read phase: every thread
 * opens its file read-only, preads it back in BS-byte calls, closes. Nothing else happens per
 * transfer: no clock read, no stamping, no bookkeeping.
 *
 * Bandwidth uses iogauge's (IOR's) window: bytes of all threads / (last close - first open),
 * CLOCK_MONOTONIC, with a barrier before each phase's open. Output, one line per phase:
 *   raw <write|read> <bytes> <seconds> <MiB/s> <longest thread's open-to-close seconds>
 * (the last field gives fio's definition: bytes / the longest single job's time).
 *
 * Build: cc -O2 -pthread -o raw_rw raw_rw.c
 * Usage: raw_rw DIR JOBS SIZE_BYTES BS_BYTES
 * The files are left in place (the caller removes them, as it does fio's and iogauge's, so
 * that no tool's CPU time includes the deletion). Exit 1 on any I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PH_WRITE = 0, PH_READ = 1 };

struct job {
    int id;
    char path[4096];
    unsigned char *buf;
    double t_open[2], t_close[2];
    int failed;
};

static uint64_t g_size, g_bs;
static int g_jobs;
static pthread_barrier_t g_barrier;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(struct job *j, const char *what)
{
    fprintf(stderr, "raw_rw: %s %s: %s\n", what, j->path, strerror(errno));
    j->failed = 1;
    return -1;
}

static int write_phase(struct job *j)
{
    int fd;
    uint64_t off;
    j->t_open[PH_WRITE] = now_s();
    fd = open(j->path, O_CREAT | O_RDWR, 0644);
    if (fd < 0)
        return fail(j, "open");
    for (off = 0; off < g_size; off += g_bs) {
        uint64_t done = 0;
        while (done < g_bs) {
            ssize_t n = pwrite(fd, j->buf + done, g_bs - done, (off_t)(off + done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(fd);
                return fail(j, "pwrite");
            }
            done += (uint64_t)n;
        }
    }
    if (fsync(fd) != 0) {
        close(fd);
        return fail(j, "fsync");
    }
    if (close(fd) != 0)
        return fail(j, "close");
    j->t_close[PH_WRITE] = now_s();
    return 0;
}

static int read_phase(struct job *j)
{
    int fd;
    uint64_t off;
    j->t_open[PH_READ] = now_s();
    fd = open(j->path, O_RDONLY);
    if (fd < 0)
        return fail(j, "open");
    for (off = 0; off < g_size; off += g_bs) {
        uint64_t done = 0;
        while (done < g_bs) {
            ssize_t n = pread(fd, j->buf + done, g_bs - done, (off_t)(off + done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                if (n == 0)
                    errno = EIO; /* short file */
                close(fd);
                return fail(j, "pread");
            }
            done += (uint64_t)n;
        }
    }
    if (close(fd) != 0)
        return fail(j, "close");
    j->t_close[PH_READ] = now_s();
    return 0;
}

static void *run(void *arg)
{
    struct job *j = arg;
    /* A failed thread still takes part in every barrier, so no one waits forever. */
    pthread_barrier_wait(&g_barrier);
    if (!j->failed)
        write_phase(j);
    pthread_barrier_wait(&g_barrier);
    if (!j->failed)
        read_phase(j);
    return NULL;
}

static uint64_t parse_u64(const char *s, const char *name)
{
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v == 0) {
        fprintf(stderr, "raw_rw: %s must be a positive integer, got '%s'\n", name, s);
        exit(2);
    }
    return (uint64_t)v;
}

static void report(struct job *jobs, int ph, const char *name)
{
    double first = jobs[0].t_open[ph], last = jobs[0].t_close[ph], longest = 0, secs;
    double bytes = (double)g_size * (double)g_jobs;
    int i;
    for (i = 0; i < g_jobs; i++) {
        if (jobs[i].t_open[ph] < first)
            first = jobs[i].t_open[ph];
        if (jobs[i].t_close[ph] > last)
            last = jobs[i].t_close[ph];
        if (jobs[i].t_close[ph] - jobs[i].t_open[ph] > longest)
            longest = jobs[i].t_close[ph] - jobs[i].t_open[ph];
    }
    secs = last - first;
    printf("raw %s %.0f %.6f %.2f %.6f\n", name, bytes, secs, bytes / secs / 1048576.0, longest);
}

int main(int argc, char **argv)
{
    struct job *jobs;
    pthread_t *tids;
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    int i, failed = 0;

    if (argc != 5) {
        fprintf(stderr, "usage: raw_rw DIR JOBS SIZE_BYTES BS_BYTES\n");
        return 2;
    }
    g_jobs = (int)parse_u64(argv[2], "JOBS");
    g_size = parse_u64(argv[3], "SIZE_BYTES");
    g_bs = parse_u64(argv[4], "BS_BYTES");
    if (g_size % g_bs) {
        fprintf(stderr, "raw_rw: SIZE_BYTES %llu is not a multiple of BS_BYTES %llu\n",
                (unsigned long long)g_size, (unsigned long long)g_bs);
        return 2;
    }

    jobs = calloc((size_t)g_jobs, sizeof *jobs);
    tids = calloc((size_t)g_jobs, sizeof *tids);
    if (!jobs || !tids) {
        perror("raw_rw: calloc");
        return 1;
    }
    pthread_barrier_init(&g_barrier, NULL, (unsigned)g_jobs);
    for (i = 0; i < g_jobs; i++) {
        uint64_t k;
        jobs[i].id = i;
        snprintf(jobs[i].path, sizeof jobs[i].path, "%s/raw.%d", argv[1], i);
        unlink(jobs[i].path);
        if (posix_memalign((void **)&jobs[i].buf, 4096, g_bs)) {
            fprintf(stderr, "raw_rw: cannot allocate %llu bytes\n", (unsigned long long)g_bs);
            return 1;
        }
        /* xorshift64 fill, once, untimed (as iogauge and fio fill their buffers). */
        for (k = 0; k + 8 <= g_bs; k += 8) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            memcpy(jobs[i].buf + k, &state, 8);
        }
        for (; k < g_bs; k++)
            jobs[i].buf[k] = (unsigned char)k;
    }
    for (i = 0; i < g_jobs; i++)
        if (pthread_create(&tids[i], NULL, run, &jobs[i]) != 0) {
            fprintf(stderr, "raw_rw: pthread_create failed\n");
            return 1;
        }
    for (i = 0; i < g_jobs; i++) {
        pthread_join(tids[i], NULL);
        failed |= jobs[i].failed;
    }
    if (failed)
        return 1;
    report(jobs, PH_WRITE, "write");
    report(jobs, PH_READ, "read");
    return 0;
}
