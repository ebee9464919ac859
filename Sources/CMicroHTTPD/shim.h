#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Swift does not import C-variadic functions; these fixed-arity wrappers are the only C here. */

/* Starts a daemon; the completion callback is passed here, the other options in one MHD_OPTION_ARRAY. */
static inline struct MHD_Daemon *CMHD_start_daemon(unsigned int flags, uint16_t port,
                                                    MHD_AccessHandlerCallback handler, void *handler_cls,
                                                    MHD_RequestCompletedCallback completed, void *completed_cls,
                                                    struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon actually bound (useful after asking for port 0). */
static inline uint16_t CMHD_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client socket of a connection, for faults that act below HTTP. */
static inline int CMHD_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

#endif
