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

#endif
