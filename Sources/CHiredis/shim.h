// Valkey and Redis through hiredis (Debian libhiredis-dev, Homebrew hiredis): the fleet's state store.
#include <hiredis/hiredis.h>
