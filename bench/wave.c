/* A load client for the delay benchmark: opens N connections, sends one GET on each as fast as
 * possible, and records each response's latency with one epoll thread, so the client adds as
 * little lateness as it can. Prints one line: answered wall_ms p50 p99 max (latency minus the
 * requested delay, in ms). Built by bench/delay-wave.py; not part of stubd. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd; double sent, done; char buf[4096]; int len; int want; int ok; } conn_t;

static double now_ms(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: wave HOST PORT N PATH [DELAY_MS]\n"); return 2; }
    const char *host = argv[1]; int port = atoi(argv[2]); int n = atoi(argv[3]); const char *path = argv[4];
    double delay = argc > 5 ? atof(argv[5]) : 0;
    const char *ce = getenv("CLOSE_EACH"); int close_each = ce && atoi(ce) == 1;
    struct rlimit rl; getrlimit(RLIMIT_NOFILE, &rl); rl.rlim_cur = rl.rlim_max; setrlimit(RLIMIT_NOFILE, &rl);
    struct sockaddr_in addr = {0}; addr.sin_family = AF_INET; addr.sin_port = htons(port); inet_pton(AF_INET, host, &addr.sin_addr);
    conn_t *c = calloc(n, sizeof(conn_t));
    int ep = epoll_create1(0);
    struct epoll_event ev, events[1024];
    /* Connect in batches so the listen backlog never overflows (a dropped SYN costs a 1 s retry). */
    int batch = 500;
    for (int i = 0; i < n; i += batch) {
        int end = i + batch < n ? i + batch : n, pending = 0;
        for (int j = i; j < end; j++) {
            c[j].fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            if (c[j].fd < 0) { perror("socket"); return 1; }
            int one = 1; setsockopt(c[j].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (connect(c[j].fd, (struct sockaddr *)&addr, sizeof addr) < 0 && errno != EINPROGRESS) { perror("connect"); return 1; }
            ev.events = EPOLLOUT; ev.data.u32 = j; epoll_ctl(ep, EPOLL_CTL_ADD, c[j].fd, &ev); pending++;
        }
        while (pending > 0) {
            int k = epoll_wait(ep, events, 1024, 5000);
            if (k <= 0) { fprintf(stderr, "connect timeout\n"); return 1; }
            for (int e = 0; e < k; e++) {
                int j = events[e].data.u32; ev.events = EPOLLIN; ev.data.u32 = j;
                epoll_ctl(ep, EPOLL_CTL_MOD, c[j].fd, &ev); pending--;
            }
        }
    }
    char req[512]; int rlen = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, host);
    double start = now_ms();
    for (int j = 0; j < n; j++) { c[j].sent = now_ms(); if (write(c[j].fd, req, rlen) != rlen) { perror("write"); return 1; } c[j].want = -1; }
    int remaining = n; double last = start;
    while (remaining > 0) {
        int k = epoll_wait(ep, events, 1024, 30000);
        if (k <= 0) break;
        for (int e = 0; e < k; e++) {
            conn_t *x = &c[events[e].data.u32];
            if (x->done > 0) continue;
            int r = read(x->fd, x->buf + x->len, sizeof x->buf - x->len - 1);
            double t = now_ms();
            if (r <= 0) { x->done = t; remaining--; close(x->fd); continue; }
            x->len += r; x->buf[x->len] = 0;
            if (x->want < 0) {
                char *end = strstr(x->buf, "\r\n\r\n");
                if (!end) continue;
                char *cl = strcasestr(x->buf, "content-length:");
                x->want = (int)(end + 4 - x->buf) + (cl ? atoi(cl + 15) : 0);
                x->ok = strncmp(x->buf, "HTTP/1.1 200", 12) == 0;
            }
            if (x->len >= x->want) {
                x->done = t; last = t; remaining--;
                /* Like a real client's connection pool, keep the connection until the wave is over
                 * unless asked to close at once (CLOSE_EACH=1). */
                if (close_each) close(x->fd); else epoll_ctl(ep, EPOLL_CTL_DEL, x->fd, NULL);
            }
        }
    }
    if (!close_each) for (int j = 0; j < n; j++) if (c[j].done > 0 && c[j].len >= c[j].want && c[j].want > 0) close(c[j].fd);
    double *lat = malloc(n * sizeof(double)); int answered = 0;
    for (int j = 0; j < n; j++) if (c[j].ok && c[j].done > 0) lat[answered++] = c[j].done - c[j].sent - delay;
    qsort(lat, answered, sizeof(double), cmp);
    if (answered == 0) { printf("0 0 0 0 0\n"); return 1; }
    printf("%d %.1f %.2f %.2f %.2f\n", answered, last - start, lat[answered / 2], lat[(int)(answered * 0.99)], lat[answered - 1]);
    return answered == n ? 0 : 1;
}
