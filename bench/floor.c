/*
 * The "floor" for bench/request-path.py: a bare libmicrohttpd server that answers every request
 * with one prebuilt response (the fixture's bytes and Content-Type), on the same daemon flags and
 * limits stubd uses for one polling thread. Whatever stubd costs above this is stubd's own.
 *
 * usage: floor PORT FILE CONTENT_TYPE     (PORT 0 picks a free one)
 * Prints "floor listening on PORT" on stdout once it serves; stops on SIGTERM or SIGINT.
 * Build: gcc -O2 -o floor floor.c $(pkg-config --cflags --libs libmicrohttpd)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *response;
static int first_call_marker;
static volatile sig_atomic_t stopping;

static void on_signal(int sig) { (void)sig; stopping = 1; }

/* MHD 0.9.75 closes the connection when a response is queued on the first call for a request,
 * so the first call only marks the request and the second one answers. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    if (*con_cls == NULL) {
        *con_cls = &first_call_marker;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0; /* drop any request body */
        return MHD_YES;
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, response);
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc(n > 0 ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: floor PORT FILE CONTENT_TYPE\n");
        return 2;
    }
    size_t size;
    char *body = read_file(argv[2], &size);
    if (!body) {
        perror(argv[2]);
        return 1;
    }
    response = MHD_create_response_from_buffer(size, body, MHD_RESPMEM_MUST_COPY);
    free(body);
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, argv[3]);

    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, NULL, NULL, handle, NULL,
                                                 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                                                 /* stubd's per-connection memory: twice its default
                                                    largest head (8 KiB). MHD zeroes it before each
                                                    request, so it costs both alike. */
                                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
                                                 MHD_OPTION_CONNECTION_LIMIT, (unsigned int)10000,
#if MHD_VERSION >= 0x00097701
                                                 /* and the client discipline stubd asks of 1.0 */
                                                 MHD_OPTION_CLIENT_DISCIPLINE_LVL, (int)1,
#endif
                                                 MHD_OPTION_END);
    if (!daemon) {
        fprintf(stderr, "floor: MHD_start_daemon failed\n");
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("floor listening on %u\n", info ? (unsigned)info->port : 0u);
    fflush(stdout);

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    while (!stopping) pause();
    MHD_stop_daemon(daemon);
    MHD_destroy_response(response);
    return 0;
}
