#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Swift does not import C-variadic functions; these fixed-arity wrappers are the only C here. */

/* The URI log callback's type (the header declares it only inside a comment). */
typedef void *(*CMHD_RequestStartedCallback)(void *cls, const char *uri, struct MHD_Connection *connection);

/* Starts a daemon. The callbacks are passed here, all with one `cls`; the other options in one
   MHD_OPTION_ARRAY. */
static inline struct MHD_Daemon *CMHD_start_daemon(unsigned int flags, void *cls,
                                                    MHD_AcceptPolicyCallback accept,
                                                    MHD_AccessHandlerCallback handler,
                                                    MHD_RequestCompletedCallback completed,
                                                    CMHD_RequestStartedCallback started,
                                                    MHD_NotifyConnectionCallback connection,
                                                    struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, accept, cls, handler, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_URI_LOG_CALLBACK, started, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, connection, cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The context the connection callback stored for a connection (MHD_CONNECTION_INFO_SOCKET_CONTEXT). */
static inline void *CMHD_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The client's address of a connection, or NULL. */
static inline const struct sockaddr *CMHD_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
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

/* The size of the request head (request line and headers) as received; 0 when unknown. */
static inline size_t CMHD_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* Walks the query parameters and the headers in one pass (libmicrohttpd's list holds the query's
   pairs first, parsed with the request line, then the headers); the iterator is told each pair's
   kind. In C the kinds are a bit mask, which Swift's imported enum cannot carry. */
static inline int CMHD_query_and_headers(struct MHD_Connection *connection, MHD_KeyValueIteratorN iterator, void *cls) {
    return MHD_get_connection_values_n(connection, (enum MHD_ValueKind)(MHD_GET_ARGUMENT_KIND | MHD_HEADER_KIND), iterator, cls);
}

/* True when the connection speaks TLS (it has a GnuTLS session). */
static inline bool CMHD_is_tls(struct MHD_Connection *connection) {
    return MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION) != NULL;
}

/* MHD_OPTION_CLIENT_DISCIPLINE_LVL (since 0.9.77) with `level`. Its number is written out so that a
   build against an older header can still ask a newer library that it loads at run time; pass it
   only to a library that knows it (see MHDLibrary), as older ones refuse to start on it. */
static inline struct MHD_OptionItem CMHD_client_discipline_option(int level) {
    struct MHD_OptionItem item = { (enum MHD_OPTION) 38, level, NULL };
    return item;
}

/* Closes an upgraded connection: MHD_upgrade_action is variadic, which Swift cannot call. */
static inline bool CMHD_upgrade_close(struct MHD_UpgradeResponseHandle *urh) {
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE) == MHD_YES;
}

#endif
