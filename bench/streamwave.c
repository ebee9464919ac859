/* A load client for the stream benchmark: opens N connections, sends one GET on each, and reads
 * every server-sent event as it arrives with one epoll thread. For each event it records how late
 * it came: its arrival minus (the moment its request was sent + k * INTERVAL_MS), so the time to
 * accept the connection and start the stream counts too; and, for each event after the first, its
 * arrival minus (the first event's arrival + k * INTERVAL_MS): the pacing once the stream runs.
 * Prints one line: streams_done events wall_ms, then p50 p99 max of each lateness, in ms. Built by
 * bench/streams.py; not part of stubd. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd; double sent, first; int events; int done; char tail[8]; int tlen; } conn_t;

static double now_ms(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 6) { fprintf(stderr, "usage: streamwave HOST PORT N PATH INTERVAL_MS\n"); return 2; }
    const char *host = argv[1]; int port = atoi(argv[2]); int n = atoi(argv[3]); const char *path = argv[4];
    double interval = atof(argv[5]);
    struct rlimit rl; getrlimit(RLIMIT_NOFILE, &rl); rl.rlim_cur = rl.rlim_max; setrlimit(RLIMIT_NOFILE, &rl);
    struct sockaddr_in addr = {0}; addr.sin_family = AF_INET; addr.sin_port = htons(port); inet_pton(AF_INET, host, &addr.sin_addr);
    conn_t *c = calloc(n, sizeof(conn_t));
    size_t cap = (size_t)n * 64, count = 0;
    double *late = malloc(cap * sizeof(double)), *pace = malloc(cap * sizeof(double));
    size_t paced = 0;
    int ep = epoll_create1(0);
    struct epoll_event ev, events[1024];
    char request[512];
    int rlen = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", path, host);
    double start = now_ms();
    for (int i = 0; i < n; i++) {
        c[i].fd = socket(AF_INET, SOCK_STREAM, 0);
        if (c[i].fd < 0 || connect(c[i].fd, (struct sockaddr *)&addr, sizeof addr) != 0) { c[i].done = -1; continue; }
        if (write(c[i].fd, request, rlen) != rlen) { c[i].done = -1; continue; }
        c[i].sent = now_ms();
        fcntl(c[i].fd, F_SETFL, O_NONBLOCK);
        ev.events = EPOLLIN; ev.data.u32 = i; epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ev);
    }
    int open = 0; for (int i = 0; i < n; i++) if (c[i].done == 0) open++;
    char buf[65536];
    while (open > 0) {
        int k = epoll_wait(ep, events, 1024, 30000);
        if (k <= 0) break;
        double t = now_ms();
        for (int e = 0; e < k; e++) {
            conn_t *x = &c[events[e].data.u32];
            ssize_t got = read(x->fd, buf, sizeof buf);
            if (got <= 0) { if (got < 0 && errno == EAGAIN) continue; x->done = 1; open--; close(x->fd); continue; }
            /* Events end with "\n\n" (chunk framing uses "\r\n"); the stream with "0\r\n\r\n". */
            char joined[sizeof buf + 8]; memcpy(joined, x->tail, x->tlen); memcpy(joined + x->tlen, buf, got);
            size_t len = x->tlen + got;
            for (size_t j = x->tlen > 0 ? x->tlen - 1 : 0; j + 1 < len; j++) {
                if (joined[j] == '\n' && joined[j + 1] == '\n' && (j == 0 || joined[j - 1] != '\r')) {
                    if (count == cap) { cap *= 2; late = realloc(late, cap * sizeof(double)); pace = realloc(pace, cap * sizeof(double)); }
                    late[count++] = t - (x->sent + x->events * interval);
                    if (x->events == 0) x->first = t; else pace[paced++] = t - (x->first + x->events * interval);
                    x->events++;
                }
            }
            if (len >= 5 && memcmp(joined + len - 5, "0\r\n\r\n", 5) == 0) { x->done = 1; open--; close(x->fd); continue; }
            x->tlen = len < 7 ? (int)len : 7; memcpy(x->tail, joined + len - x->tlen, x->tlen);
        }
    }
    double wall = now_ms() - start;
    long total = 0; int finished = 0;
    for (int i = 0; i < n; i++) { total += c[i].events; if (c[i].done == 1) finished++; }
    qsort(late, count, sizeof(double), cmp);
    qsort(pace, paced, sizeof(double), cmp);
    double p50 = count ? late[count / 2] : 0, p99 = count ? late[(size_t)(count * 0.99)] : 0, mx = count ? late[count - 1] : 0;
    double q50 = paced ? pace[paced / 2] : 0, q99 = paced ? pace[(size_t)(paced * 0.99)] : 0, qmx = paced ? pace[paced - 1] : 0;
    printf("%d %ld %.0f %.1f %.1f %.1f %.1f %.1f %.1f\n", finished, total, wall, p50, p99, mx, q50, q99, qmx);
    return 0;
}
