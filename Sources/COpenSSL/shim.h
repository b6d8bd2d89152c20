// The system's OpenSSL (libssl, libcrypto; Debian's libssl-dev) for the TLS target.
// OpenSSL 3 spells several calls as macros, which Swift cannot import: tiny inline wrappers.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/rand.h>
#include <openssl/bio.h>

static inline int om_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int om_ssl_ctx_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}
static inline long om_ssl_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long om_ssl_ctx_set_options(SSL_CTX *ctx, long options) { return (long)SSL_CTX_set_options(ctx, (uint64_t)options); }
static inline long om_ssl_ctx_set_session_cache_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_session_cache_mode(ctx, mode); }
static inline int om_ssl_set_tlsext_host_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }
static inline void om_bio_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }
static inline void om_bio_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }
static inline void om_openssl_free(void *p) { OPENSSL_free(p); }

// ALPN: the server speaks HTTP/1.1 only. A client offering ALPN without it gets the
// no_application_protocol alert (RFC 7301); a client offering no ALPN is served as HTTP/1.1.
static int om_alpn_select_http11(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                 const unsigned char *in, unsigned int inlen, void *arg) {
    static const unsigned char http11[] = "\x08http/1.1";
    (void)ssl; (void)arg;
    if (SSL_select_next_proto((unsigned char **)out, outlen, http11, sizeof(http11) - 1, in, inlen)
        == OPENSSL_NPN_NEGOTIATED) return SSL_TLSEXT_ERR_OK;
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}
static inline void om_ssl_ctx_select_http11(SSL_CTX *ctx) { SSL_CTX_set_alpn_select_cb(ctx, om_alpn_select_http11, NULL); }
static inline int om_ssl_ctx_offer_http11(SSL_CTX *ctx) {
    static const unsigned char http11[] = "\x08http/1.1";
    return SSL_CTX_set_alpn_protos(ctx, http11, sizeof(http11) - 1);
}
static inline long om_bio_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

static const long om_mode_release_buffers = SSL_MODE_RELEASE_BUFFERS;
static const long om_mode_accept_moving_write_buffer = SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
static const long om_mode_enable_partial_write = SSL_MODE_ENABLE_PARTIAL_WRITE;
static const long om_op_no_renegotiation = SSL_OP_NO_RENEGOTIATION;
static const long om_op_no_compression = SSL_OP_NO_COMPRESSION;
static const long om_op_cipher_server_preference = SSL_OP_CIPHER_SERVER_PREFERENCE;
static const long om_op_ignore_unexpected_eof = SSL_OP_IGNORE_UNEXPECTED_EOF;
static const long om_bio_ctrl_flush = BIO_CTRL_FLUSH;
static const int om_tls1_2_version = TLS1_2_VERSION;
static const int om_mbstring_asc = MBSTRING_ASC;
#endif
