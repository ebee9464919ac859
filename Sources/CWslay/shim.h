/* wslay 1.1: RFC 6455 framing for a server that does its own I/O (Debian libwslay-dev,
   Homebrew wslay). */
#include <sys/types.h>
#include <wslay/wslay.h>
