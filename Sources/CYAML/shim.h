#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H

/* libyaml's event parser; Swift imports it as is. */
#include <yaml.h>

#endif
