/*
 * raw_md.c: the "raw syscall loop" reference for benches/mdtest_vs_raw.sh.
 *
 * JOBS threads, N files per thread, at the paths `iogauge mdtest -F -u -d DIR` uses:
 * DIR/test-dir.0-0/mdtest_tree.<thread>.0/file.mdtest.<thread>.<k> (the directories are made
 * before timing, like mdtest's tree; the same path depth matters, lookups cost per component).
 * Phases, each between two barriers:
 *   create: open(O_CREAT|O_WRONLY, 0664) + close   (mdtest -F create without -w)
 *   stat:   stat()
 *   remove: unlink()
 * Nothing else happens per operation: no clock read, no bookkeeping; the name is built by
 * appending the item number's digits to a fixed prefix.
 *
 * Rate uses mdtest's definition: each thread reads the clock after the opening barrier and
 * after the closing barrier; rate = JOBS * N / the longest such window (CLOCK_MONOTONIC).
 * Output, one line per phase:
 *   raw <create|stat|remove> <ops> <seconds> <ops/s>
 *
 * Build: cc -O2 -pthread -o raw_md raw_md.c
 * Usage: raw_md DIR JOBS N   (DIR must not exist; its parent must)
 * The files and directories are removed at the end. Exit 1 on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { PH_CREATE, PH_STAT, PH_REMOVE, PH_COUNT };
static const char *PHASE_NAMES[PH_COUNT] = {"create", "stat", "remove"};

struct job {
    int id;
    char dir[4096];
    double t0[PH_COUNT], t1[PH_COUNT];
    int failed;
};

static long g_n;
static int g_jobs;
static pthread_barrier_t g_barrier;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Appends the decimal digits of v at p; returns the end (NUL-terminated). */
static char *put_u64(char *p, unsigned long v)
{
    char tmp[24];
    int i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i)
        *p++ = tmp[--i];
    *p = 0;
    return p;
}

static void *worker(void *arg)
{
    struct job *j = arg;
    char path[4352];
    int len = snprintf(path, sizeof path, "%s/file.mdtest.%d.", j->dir, j->id);
    char *num = path + len;
    struct stat st;
    for (int ph = 0; ph < PH_COUNT; ph++) {
        pthread_barrier_wait(&g_barrier);
        j->t0[ph] = now_s();
        if (!j->failed) {
            for (long k = 0; k < g_n; k++) {
                put_u64(num, (unsigned long)k);
                int rc;
                if (ph == PH_CREATE) {
                    int fd = open(path, O_CREAT | O_WRONLY, 0664);
                    rc = fd < 0 ? -1 : close(fd);
                } else if (ph == PH_STAT) {
                    rc = stat(path, &st);
                } else {
                    rc = unlink(path);
                }
                if (rc != 0) {
                    fprintf(stderr, "raw_md: %s %s: %s\n", PHASE_NAMES[ph], path, strerror(errno));
                    j->failed = 1;
                    break;
                }
            }
        }
        pthread_barrier_wait(&g_barrier);
        j->t1[ph] = now_s();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: raw_md DIR JOBS N\n");
        return 2;
    }
    g_jobs = atoi(argv[2]);
    g_n = atol(argv[3]);
    if (g_jobs < 1 || g_n < 1) {
        fprintf(stderr, "raw_md: JOBS and N must be positive\n");
        return 2;
    }
    struct job *jobs = calloc((size_t)g_jobs, sizeof *jobs);
    pthread_t *threads = calloc((size_t)g_jobs, sizeof *threads);
    if (!jobs || !threads)
        return 1;
    pthread_barrier_init(&g_barrier, NULL, (unsigned)g_jobs);
    char top[4096], test_dir[4200];
    snprintf(top, sizeof top, "%s", argv[1]);
    snprintf(test_dir, sizeof test_dir, "%s/test-dir.0-0", top);
    if (mkdir(top, 0775) != 0 || mkdir(test_dir, 0775) != 0) {
        fprintf(stderr, "raw_md: mkdir %s: %s\n", test_dir, strerror(errno));
        return 1;
    }
    for (int t = 0; t < g_jobs; t++) {
        jobs[t].id = t;
        snprintf(jobs[t].dir, sizeof jobs[t].dir, "%s/mdtest_tree.%d.0", test_dir, t);
        if (mkdir(jobs[t].dir, 0775) != 0) {
            fprintf(stderr, "raw_md: mkdir %s: %s\n", jobs[t].dir, strerror(errno));
            return 1;
        }
    }
    for (int t = 0; t < g_jobs; t++)
        pthread_create(&threads[t], NULL, worker, &jobs[t]);
    int failed = 0;
    for (int t = 0; t < g_jobs; t++) {
        pthread_join(threads[t], NULL);
        failed |= jobs[t].failed;
        rmdir(jobs[t].dir);
    }
    rmdir(test_dir);
    rmdir(top);
    if (failed)
        return 1;
    for (int ph = 0; ph < PH_COUNT; ph++) {
        double longest = 0;
        for (int t = 0; t < g_jobs; t++) {
            double d = jobs[t].t1[ph] - jobs[t].t0[ph];
            if (d > longest)
                longest = d;
        }
        long ops = g_n * g_jobs;
        printf("raw %s %ld %.6f %.3f\n", PHASE_NAMES[ph], ops, longest, longest > 0 ? ops / longest : 0.0);
    }
    return 0;
}
