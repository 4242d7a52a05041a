// The workbook's zip on every core. libxlsxwriter zips the workbook's sheets when it closes, one after the other, on
// the thread that closes it, after the report's last row: a tail nothing else overlaps (0.98 s of a 6 s reconcile
// at 150,000 charges, 10 s at a million; docs/BENCHMARKS.md). The other core is idle then.
//
// What: a stream that `deflateInit2_` (deflate_level.c) adopts inside the bracket is compressed in pieces of
// `DEFLATE_LEVEL_PIECE_BYTES` of its input, each on a worker thread, primed with the 32 KiB of input before it, so
// that it finds the same matches across the cut as one stream would. A stream at zlib's level 1 (Z_BEST_SPEED, the
// workbook's) with a 32 KiB window and the default strategy is compressed by ISA-L's igzip at its level 1
// (`isal_deflate_set_dict`): raw deflate as zlib's is, about 6 times as fast on the sheets' XML and a few percent
// smaller (docs/BENCHMARKS.md, "igzip"); any other by a zlib stream of its own with the same level, window and
// strategy (`deflateSetDictionary`). Every piece but the last ends with a sync flush (an empty stored
// block: the output ends on a byte, in no final block), the last with Z_FINISH: the pieces' outputs, in order, are
// one raw deflate stream, the same technique as pigz. minizip computes the CRC and the sizes itself from what it
// hands `deflate` and from `total_in`/`total_out`, which this file keeps as zlib does.
//
// How: this executable defines `deflate` and `deflateEnd`, as it defines `deflateInit2_`; a call for a stream this
// thread did not adopt goes on to zlib's own at once, so nothing else in the process changes. The calling thread
// copies the input into the current piece and hands full pieces to the workers; it copies the pieces' outputs, in
// order, into the caller's buffer as they finish, and waits only when more pieces are in flight than
// `pieces_per_worker_in_flight` allows (memory stays a few MiB) or at Z_FINISH. A `deflate` call always consumes all of its
// input unless it fills the caller's buffer first, so minizip's loops (flush the buffer when `avail_out` is 0, call
// again while `avail_in` or the finish is pending) drive it as they drive zlib.

#define _GNU_SOURCE
#include "parallel_deflate.h"
#include "deflate_level.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__LP64__)
_Static_assert(sizeof(zlib_stream) == 112, "zlib's z_stream on a 64-bit system");
#endif
_Static_assert(DEFLATE_LEVEL_PIECE_BYTES >= zlib_window_bytes, "a piece primes the next with its last 32 KiB");

enum { most_workers = 8, pieces_per_worker_in_flight = 2, every_piece = -1 };

typedef int (*zlib_set_dictionary_function)(zlib_stream *stream, const unsigned char *dictionary, unsigned length);
typedef int (*zlib_reset_function)(zlib_stream *stream);
typedef unsigned long (*zlib_bound_function)(zlib_stream *stream, unsigned long source_length);

void *zlib_function(const char *name) { return dlsym(RTLD_NEXT, name); }

void *zlib_function_once(void *_Atomic *cache, const char *name, const void *self) {
    void *found = atomic_load(cache);
    if (found) return found;
    found = zlib_function(name);
    if (!found || found == self) return NULL;
    atomic_store(cache, found);
    return found;
}

/// One piece of a stream's input and, once a worker has compressed it, its output.
typedef struct piece {
    struct piece *next_of_stream;  // the stream's order
    struct piece *next_waiting;    // the workers' queue
    unsigned char *input;
    size_t input_length;
    unsigned char dictionary[zlib_window_bytes];
    size_t dictionary_length;
    int last;
    int level, window_bits, memory_level, strategy;
    const char *version;
    unsigned char *output;
    size_t output_length;
    size_t emitted;
    int failed;
    _Atomic int done;
} piece;

/// The worker threads of one bracket, and the pieces waiting for them.
typedef struct workers {
    pthread_mutex_t lock;
    pthread_cond_t work;
    pthread_cond_t finished;
    piece *first_waiting, *last_waiting;
    int stopping;
    int count;
    pthread_t threads[most_workers];
} workers;

/// A stream this file compresses.
typedef struct adopted_stream {
    struct adopted_stream *next;
    zlib_stream *stream;
    int level, window_bits, memory_level, strategy;
    const char *version;
    unsigned char *current;  // the piece being filled
    size_t filled;
    unsigned char dictionary[zlib_window_bytes];  // the 32 KiB before `current`
    size_t dictionary_length;
    piece *first, *last;  // handed to the workers, not yet wholly emitted
    int in_flight;
    int finishing;
    int failed;
} adopted_stream;

static void release(adopted_stream *owner);

static _Thread_local adopted_stream *adopted = NULL;
static _Thread_local workers *bracket_workers = NULL;
static void *_Atomic zlib_deflate = NULL;
static void *_Atomic zlib_deflate_end = NULL;

static int worker_count(void) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 2) return 1;
    return online > most_workers ? most_workers : (int)online;
}

int deflate_level_threads(void) { return worker_count(); }

const char *deflate_level_compressor(void) { return worker_count() < 2 ? "zlib" : "igzip"; }

// MARK: the workers

/// zlib's own functions, as a worker calls them.
typedef struct zlib_functions {
    zlib_deflate_init2_function init;
    zlib_deflate_function deflate;
    zlib_deflate_end_function end;
    zlib_reset_function reset;
    zlib_set_dictionary_function set_dictionary;
    zlib_bound_function bound;
} zlib_functions;

/// A worker's zlib stream, set up once and reset for each piece of the same parameters; its igzip stream, set up
/// for each piece, and that stream's working memory for level 1, made at its first piece.
typedef struct worker_stream {
    zlib_functions zlib;
    zlib_stream stream;
    int ready;
    int level, window_bits, memory_level, strategy;
    struct isal_zstream igzip;
    uint8_t *igzip_level_buffer;
} worker_stream;

static int find_zlib(zlib_functions *zlib) {
    zlib->init = (zlib_deflate_init2_function)zlib_function("deflateInit2_");
    zlib->deflate = (zlib_deflate_function)zlib_function("deflate");
    zlib->end = (zlib_deflate_end_function)zlib_function("deflateEnd");
    zlib->reset = (zlib_reset_function)zlib_function("deflateReset");
    zlib->set_dictionary = (zlib_set_dictionary_function)zlib_function("deflateSetDictionary");
    zlib->bound = (zlib_bound_function)zlib_function("deflateBound");
    return zlib->init && zlib->deflate && zlib->end && zlib->reset && zlib->set_dictionary && zlib->bound ? 0 : -1;
}

/// Whether igzip compresses `job`: zlib's level 1 with a 32 KiB window and the default strategy.
static int for_igzip(const piece *job) {
    return job->level == zlib_best_speed && job->window_bits == zlib_raw_window_bits &&
           job->strategy == zlib_default_strategy;
}

/// Doubles `job`'s output buffer of `*capacity` bytes, keeping what it holds. Not expected for either compressor:
/// each sizes the buffer from a bound. Returns 0, or -1 without memory.
static int grow_output(piece *job, size_t *capacity) {
    unsigned char *larger = realloc(job->output, *capacity * 2);
    if (!larger) return -1;
    job->output = larger;
    *capacity *= 2;
    return 0;
}

/// Compresses `job` into a buffer of its own with igzip. Returns 0, or -1 when igzip or memory failed.
static int compress_piece_igzip(worker_stream *worker, piece *job) {
    if (!worker->igzip_level_buffer) {
        worker->igzip_level_buffer = malloc(ISAL_DEF_LVL1_DEFAULT);
        if (!worker->igzip_level_buffer) return -1;
    }
    struct isal_zstream *stream = &worker->igzip;
    isal_deflate_init(stream);
    stream->level = 1;
    stream->level_buf = worker->igzip_level_buffer;
    stream->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    stream->gzip_flag = IGZIP_DEFLATE;
    if (job->dictionary_length > 0 &&
        isal_deflate_set_dict(stream, job->dictionary, (uint32_t)job->dictionary_length) != COMP_OK)
        return -1;
    // igzip has no bound function: incompressible input becomes stored blocks, 5 bytes per 64 KiB; a sync flush
    // adds an empty one.
    size_t capacity = job->input_length + job->input_length / 8 + 1024;
    job->output = malloc(capacity);
    if (!job->output) return -1;
    stream->next_in = job->input;
    stream->avail_in = (uint32_t)job->input_length;
    stream->end_of_stream = job->last ? 1 : 0;
    stream->flush = job->last ? NO_FLUSH : SYNC_FLUSH;
    for (;;) {
        stream->next_out = job->output + job->output_length;
        stream->avail_out = (uint32_t)(capacity - job->output_length);
        uint32_t input_before = stream->avail_in;
        size_t output_before = job->output_length;
        if (isal_deflate(stream) != COMP_OK) return -1;
        job->output_length = capacity - stream->avail_out;
        enum isal_zstate_state state = stream->internal_state.state;
        if (stream->avail_in == 0 && (job->last ? state == ZSTATE_END : state == ZSTATE_NEW_HDR)) return 0;
        if (stream->avail_out > 0) {
            // Room left and not done: call again, unless the call did nothing (then it never would).
            if (stream->avail_in == input_before && job->output_length == output_before) return -1;
            continue;
        }
        if (grow_output(job, &capacity) != 0) return -1;
    }
}

/// Compresses `job` into a buffer of its own. Returns 0, or -1 when zlib, igzip or memory failed.
static int compress_piece(worker_stream *worker, piece *job) {
    if (for_igzip(job)) return compress_piece_igzip(worker, job);
    zlib_functions *zlib = &worker->zlib;
    if (!zlib->init && find_zlib(zlib) != 0) return -1;
    zlib_stream *stream = &worker->stream;
    int same = worker->ready && worker->level == job->level && worker->window_bits == job->window_bits &&
               worker->memory_level == job->memory_level && worker->strategy == job->strategy;
    if (same) {
        if (zlib->reset(stream) != zlib_ok) return -1;
    } else {
        if (worker->ready) zlib->end(stream);
        worker->ready = 0;
        memset(stream, 0, sizeof *stream);
        if (zlib->init(stream, job->level, zlib_deflated, job->window_bits, job->memory_level, job->strategy,
                       job->version, (int)sizeof *stream) != zlib_ok)
            return -1;
        worker->ready = 1;
        worker->level = job->level;
        worker->window_bits = job->window_bits;
        worker->memory_level = job->memory_level;
        worker->strategy = job->strategy;
    }
    if (job->dictionary_length > 0 &&
        zlib->set_dictionary(stream, job->dictionary, (unsigned)job->dictionary_length) != zlib_ok)
        return -1;
    // deflateBound assumes one Z_FINISH; a sync flush adds an empty stored block (at most 5 bytes and a partial one).
    size_t capacity = zlib->bound(stream, job->input_length) + 16;
    job->output = malloc(capacity);
    if (!job->output) return -1;
    stream->next_in = job->input;
    stream->avail_in = (unsigned)job->input_length;
    int flush = job->last ? zlib_finish : zlib_sync_flush;
    for (;;) {
        stream->next_out = job->output + job->output_length;
        stream->avail_out = (unsigned)(capacity - job->output_length);
        int result = zlib->deflate(stream, flush);
        job->output_length = capacity - stream->avail_out;
        if (job->last ? result == zlib_stream_end : (result == zlib_ok && stream->avail_out > 0)) return 0;
        if (result != zlib_ok) return -1;
        if (grow_output(job, &capacity) != 0) return -1;
    }
}

static void *work(void *argument) {
    workers *pool = argument;
    worker_stream worker = {0};
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (!pool->first_waiting && !pool->stopping) pthread_cond_wait(&pool->work, &pool->lock);
        piece *job = pool->first_waiting;
        if (!job) {
            pthread_mutex_unlock(&pool->lock);
            break;
        }
        pool->first_waiting = job->next_waiting;
        if (!pool->first_waiting) pool->last_waiting = NULL;
        pthread_mutex_unlock(&pool->lock);

        job->failed = compress_piece(&worker, job) != 0;

        pthread_mutex_lock(&pool->lock);
        atomic_store_explicit(&job->done, 1, memory_order_release);
        pthread_cond_broadcast(&pool->finished);
        pthread_mutex_unlock(&pool->lock);
    }
    if (worker.ready) worker.zlib.end(&worker.stream);
    free(worker.igzip_level_buffer);
    return NULL;
}

static workers *start_workers(void) {
    workers *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work, NULL);
    pthread_cond_init(&pool->finished, NULL);
    int wanted = worker_count();
    for (int index = 0; index < wanted; index++) {
        if (pthread_create(&pool->threads[pool->count], NULL, work, pool) == 0) pool->count += 1;
    }
    if (pool->count == 0) {
        pthread_cond_destroy(&pool->finished);
        pthread_cond_destroy(&pool->work);
        pthread_mutex_destroy(&pool->lock);
        free(pool);
        return NULL;
    }
    return pool;
}

void parallel_deflate_stop_workers(void) {
    while (adopted) release(adopted);  // streams nobody ended (minizip ends each one): their pieces first
    workers *pool = bracket_workers;
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    for (int index = 0; index < pool->count; index++) pthread_join(pool->threads[index], NULL);
    pthread_cond_destroy(&pool->finished);
    pthread_cond_destroy(&pool->work);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
    bracket_workers = NULL;
}

static void wait_until_done(piece *job) {
    if (atomic_load_explicit(&job->done, memory_order_acquire)) return;
    workers *pool = bracket_workers;
    pthread_mutex_lock(&pool->lock);
    while (!atomic_load_explicit(&job->done, memory_order_acquire)) pthread_cond_wait(&pool->finished, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

// MARK: the adopted streams

static adopted_stream *find(const zlib_stream *stream) {
    for (adopted_stream *candidate = adopted; candidate; candidate = candidate->next) {
        if (candidate->stream == stream) return candidate;
    }
    return NULL;
}

static void free_piece(piece *job) {
    free(job->input);
    free(job->output);
    free(job);
}

/// Forgets `owner`: waits for the workers to finish its pieces (they write into them), then frees everything.
static void release(adopted_stream *owner) {
    for (adopted_stream **link = &adopted; *link; link = &(*link)->next) {
        if (*link == owner) {
            *link = owner->next;
            break;
        }
    }
    for (piece *job = owner->first; job;) {
        piece *next = job->next_of_stream;
        wait_until_done(job);
        free_piece(job);
        job = next;
    }
    free(owner->current);
    free(owner);
}

int parallel_deflate_adopt(zlib_stream *stream, int level, int window_bits, int memory_level, int strategy,
                           const char *version, int stream_size) {
    adopted_stream *earlier = find(stream);
    if (earlier) release(earlier);  // the same z_stream set up again without deflateEnd
    if (worker_count() < 2 || window_bits >= 0 || stream_size != (int)sizeof(zlib_stream)) return 0;
    adopted_stream *owner = calloc(1, sizeof *owner);
    unsigned char *current = malloc(DEFLATE_LEVEL_PIECE_BYTES);
    if (!owner || !current) {
        free(owner);
        free(current);
        return 0;
    }
    owner->stream = stream;
    owner->level = level;
    owner->window_bits = window_bits;
    owner->memory_level = memory_level;
    owner->strategy = strategy;
    owner->version = version;
    owner->current = current;
    owner->next = adopted;
    adopted = owner;
    return 1;
}

/// Hands the current piece to the workers. Returns 0, or -1 when out of memory or threads.
static int hand_over(adopted_stream *owner, int last) {
    if (!bracket_workers) bracket_workers = start_workers();
    workers *pool = bracket_workers;
    piece *job = calloc(1, sizeof *job);
    unsigned char *next = last ? NULL : malloc(DEFLATE_LEVEL_PIECE_BYTES);
    if (!pool || !job || (!last && !next)) {
        free(job);
        free(next);
        return -1;
    }
    job->input = owner->current;
    job->input_length = owner->filled;
    memcpy(job->dictionary, owner->dictionary, owner->dictionary_length);
    job->dictionary_length = owner->dictionary_length;
    job->last = last;
    job->level = owner->level;
    job->window_bits = owner->window_bits;
    job->memory_level = owner->memory_level;
    job->strategy = owner->strategy;
    job->version = owner->version;
    // Every piece but the last is whole, so the next piece's window is this one's last 32 KiB.
    size_t keep = owner->filled < zlib_window_bytes ? owner->filled : zlib_window_bytes;
    memcpy(owner->dictionary, owner->current + owner->filled - keep, keep);
    owner->dictionary_length = keep;
    owner->current = next;
    owner->filled = 0;

    if (owner->last) owner->last->next_of_stream = job; else owner->first = job;
    owner->last = job;
    owner->in_flight += 1;

    pthread_mutex_lock(&pool->lock);
    if (pool->last_waiting) pool->last_waiting->next_waiting = job; else pool->first_waiting = job;
    pool->last_waiting = job;
    pthread_cond_signal(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

/// Copies the finished pieces' output, in order, into the caller's buffer, while it has room, waiting for at most
/// `waits` unfinished pieces on the way (`every_piece`: for all of them). Returns 0, or -1 when a piece failed.
static int emit(adopted_stream *owner, zlib_stream *stream, int waits) {
    while (owner->first && stream->avail_out > 0) {
        piece *job = owner->first;
        if (!atomic_load_explicit(&job->done, memory_order_acquire)) {
            if (waits == 0) return 0;
            if (waits != every_piece) waits -= 1;
            wait_until_done(job);
        }
        if (job->failed) return -1;
        size_t left = job->output_length - job->emitted;
        size_t count = left < stream->avail_out ? left : stream->avail_out;
        memcpy(stream->next_out, job->output + job->emitted, count);
        job->emitted += count;
        stream->next_out += count;
        stream->avail_out -= (unsigned)count;
        stream->total_out += count;
        if (job->emitted == job->output_length) {
            owner->first = job->next_of_stream;
            if (!owner->first) owner->last = NULL;
            owner->in_flight -= 1;
            free_piece(job);
        }
    }
    return 0;
}

static int failure(adopted_stream *owner, zlib_stream *stream) {
    owner->failed = 1;
    stream->msg = "the workbook's parallel zip ran out of memory or threads";
    return zlib_mem_error;
}

static int deflate_adopted(adopted_stream *owner, zlib_stream *stream, int flush) {
    if (owner->failed) return zlib_stream_error;
    if (flush != zlib_no_flush && flush != zlib_finish) {
        stream->msg = "the workbook's parallel zip takes Z_NO_FLUSH and Z_FINISH only";
        return zlib_stream_error;
    }
    if (owner->finishing && stream->avail_in > 0) return zlib_stream_error;
    if (emit(owner, stream, 0) != 0) return failure(owner, stream);
    int most_in_flight = pieces_per_worker_in_flight * (bracket_workers ? bracket_workers->count : worker_count());
    while (stream->avail_in > 0) {
        if (owner->filled == DEFLATE_LEVEL_PIECE_BYTES) {
            if (owner->in_flight >= most_in_flight) {
                // Wait for the oldest piece and pass its output on; with the caller's buffer full, let it flush.
                if (emit(owner, stream, 1) != 0) return failure(owner, stream);
                if (owner->in_flight >= most_in_flight) return zlib_ok;  // avail_out is 0
            }
            if (hand_over(owner, 0) != 0) return failure(owner, stream);
        }
        size_t room = DEFLATE_LEVEL_PIECE_BYTES - owner->filled;
        size_t count = stream->avail_in < room ? stream->avail_in : room;
        memcpy(owner->current + owner->filled, stream->next_in, count);
        owner->filled += count;
        stream->next_in += count;
        stream->avail_in -= (unsigned)count;
        stream->total_in += count;
    }
    if (flush != zlib_finish) return zlib_ok;
    if (!owner->finishing) {
        if (hand_over(owner, 1) != 0) return failure(owner, stream);
        owner->finishing = 1;
    }
    if (emit(owner, stream, every_piece) != 0) return failure(owner, stream);
    return owner->first ? zlib_ok : zlib_stream_end;  // with pieces left, avail_out is 0: minizip flushes and calls again
}

// MARK: zlib's entry points

int deflate(zlib_stream *stream, int flush) {
    adopted_stream *owner = adopted ? find(stream) : NULL;
    if (owner) return deflate_adopted(owner, stream, flush);
    zlib_deflate_function real = (zlib_deflate_function)zlib_function_once(&zlib_deflate, "deflate", deflate);
    return real ? real(stream, flush) : zlib_stream_error;
}

int deflateEnd(zlib_stream *stream) {
    adopted_stream *owner = adopted ? find(stream) : NULL;
    if (owner) release(owner);
    zlib_deflate_end_function real =
        (zlib_deflate_end_function)zlib_function_once(&zlib_deflate_end, "deflateEnd", deflateEnd);
    return real ? real(stream) : zlib_stream_error;
}

#else

int deflate_level_threads(void) { return 1; }

const char *deflate_level_compressor(void) { return "zlib"; }

#endif
