#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

/* What Swift cannot import from GnuTLS's headers: a function-like macro and a free function
   that is a global function pointer. */

/* The `bits` argument of gnutls_x509_privkey_generate that names an elliptic curve. */
static inline unsigned int CGnuTLS_curve_bits(gnutls_ecc_curve_t curve) {
    return GNUTLS_CURVE_TO_BITS(curve);
}

/* Frees what an export2 call allocated into `datum`. */
static inline void CGnuTLS_free_datum(gnutls_datum_t *datum) {
    gnutls_free(datum->data);
    datum->data = NULL;
    datum->size = 0;
}

#endif
