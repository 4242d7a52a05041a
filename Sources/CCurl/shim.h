#ifndef CONNECT_RECON_CCURL_SHIM_H
#define CONNECT_RECON_CCURL_SHIM_H

#include <curl/curl.h>

// Swift cannot call C variadic functions such as curl_easy_setopt / curl_easy_getinfo,
// so each argument type gets one non-variadic wrapper here.

static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline const curl_version_info_data *ccurl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

// MARK: Added for CurlTransport

/// `curl_global_init(CURL_GLOBAL_ALL)`: the flag is a macro expression Swift does not import.
static inline CURLcode ccurl_global_init_all(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

static inline CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, CURLoption option, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode ccurl_easy_setopt_curlu(CURL *handle, CURLoption option, CURLU *url) {
    return curl_easy_setopt(handle, option, url);
}

/// Flags for `curl_url_set` (macros of shifted literals).
static inline unsigned int ccurl_url_flag_disallow_user(void) { return CURLU_DISALLOW_USER; }
static inline unsigned int ccurl_url_flag_non_support_scheme(void) { return CURLU_NON_SUPPORT_SCHEME; }

/// The size curl needs for a `CURLOPT_ERRORBUFFER` buffer.
static inline size_t ccurl_error_size(void) { return CURL_ERROR_SIZE; }

#endif
