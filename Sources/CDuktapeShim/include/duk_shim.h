/*
 * duk_shim.h: a small, Swift-friendly C API over one Duktape heap.
 *
 * Why this shim exists
 * --------------------
 * 1. Most of Duktape's public API is function-like macros (duk_peval_string, duk_pcompile,
 *    duk_create_heap_default, duk_is_callable, duk_push_error_object, duk_throw, ...) which
 *    Swift cannot import.
 * 2. Duktape reports errors with longjmp. A longjmp that crosses Swift frames skips Swift's
 *    cleanup (releases, defers, exclusivity bookkeeping) and is undefined behaviour. So no
 *    Swift code may ever call a Duktape function that can throw. This header therefore does
 *    not expose duk_context at all: every operation below runs entirely in C, inside
 *    duk_safe_call, and reports success or a copied error (name, message, line) through plain
 *    return codes. Swift only ever sees bytes, C strings and status codes.
 * 3. Duktape's fatal handler (called for errors outside any protected call, internal
 *    assertion failures, ...) must not return. The shim installs one that records the
 *    message, marks the engine "poisoned" and longjmps back to the setjmp placed in the
 *    shim entry point that is currently running (entry points nest when JS calls host
 *    functions that call back into the engine; the jump target is saved and restored). Only
 *    C frames (Duktape's and the shim's) lie between that setjmp and the fatal handler.
 *    A poisoned heap is never touched again: its memory is released block by block through
 *    the shim's tracking allocator, without calling into Duktape.
 * 4. Strings: Swift speaks UTF-8, Duktape stores strings as CESU-8 (non-BMP characters as
 *    surrogate pairs). The shim converts both ways so that "😀".length === 2 in scripts no
 *    matter where the string came from, and Swift always receives valid UTF-8.
 *
 * Value encoding (shared with Swift's ValueCoding.swift), all integers little endian:
 *   'u' undefined | 'n' null | 't' true | 'f' false | 'd' <f64 bits:u64>
 *   's' <len:u32> <utf8 bytes> | 'a' <count:u32> <value>* | 'o' <count:u32> (<len:u32> <utf8 key> <value>)*
 *
 * Threading: an engine is not thread-safe; use it from one thread at a time.
 */
#ifndef SC_DUK_SHIM_H
#define SC_DUK_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One Duktape heap plus the shim's bookkeeping. Opaque. */
typedef struct sc_duk_engine sc_duk_engine;

/* Status codes returned by the operations. */
#define SC_DUK_OK 0
#define SC_DUK_ERROR 1 /* a JS exception: see sc_duk_error_name / _message / _line */
#define SC_DUK_FATAL 2 /* Duktape's fatal handler ran: the engine is unusable from now on */

/* What a source text is. */
#define SC_DUK_SOURCE_EXPRESSION 0 /* one expression, evaluated as "(source)" */
#define SC_DUK_SOURCE_SCRIPT 1     /* a program (statements), global code */

/* What an operation leaves in sc_duk_result. */
#define SC_DUK_RESULT_NONE 0
#define SC_DUK_RESULT_DATA 1    /* the value, encoded as above */
#define SC_DUK_RESULT_BOOLEAN 2 /* 't' or 'f' (ECMAScript ToBoolean) */
#define SC_DUK_RESULT_STRING 3  /* 's' ... (ECMAScript ToString) */

/* Where an operation takes its value from. */
#define SC_DUK_VALUE_DATA 0       /* encoded bytes */
#define SC_DUK_VALUE_EXPRESSION 1 /* an expression evaluated first */
#define SC_DUK_VALUE_STORED 2     /* a value stored with sc_duk_store (optionally one element of it) */

/**
 * Called when a script calls a host function registered with sc_duk_register_function.
 * `arguments` is an encoded array ('a'), valid during the call only. Report the outcome with
 * sc_duk_host_set_result (return SC_DUK_OK) or sc_duk_host_set_error (return SC_DUK_ERROR).
 * The callback may call back into the engine (nested operations are supported).
 */
typedef int32_t (*sc_duk_host_callback)(void *host_context, sc_duk_engine *engine, int32_t function_id,
                                        const uint8_t *arguments, size_t arguments_length);

/** Creates a heap limited to `memory_limit` bytes of script data (0: unlimited). NULL on failure. */
sc_duk_engine *sc_duk_engine_create(size_t memory_limit);
/** Destroys the heap and frees everything. Safe on poisoned engines and NULL. */
void sc_duk_engine_destroy(sc_duk_engine *engine);
/** Installs (or, with NULL, removes) the host function callback. */
void sc_duk_engine_set_host(sc_duk_engine *engine, void *host_context, sc_duk_host_callback callback);
/** 1 once a fatal error happened. */
int32_t sc_duk_engine_is_poisoned(const sc_duk_engine *engine);
/** Bytes currently allocated by the heap (payload, without the shim's block headers). */
size_t sc_duk_engine_memory_in_use(const sc_duk_engine *engine);

/* Outcome of the last operation (valid until the next operation). */
const char *sc_duk_error_name(const sc_duk_engine *engine);    /* NUL-terminated UTF-8, may be "" */
const char *sc_duk_error_message(const sc_duk_engine *engine); /* NUL-terminated UTF-8 */
int64_t sc_duk_error_line(const sc_duk_engine *engine);        /* -1 when unknown */
const uint8_t *sc_duk_result(const sc_duk_engine *engine, size_t *length);

/** Evaluates (or, with compile_only, only compiles) `source`. */
int32_t sc_duk_eval(sc_duk_engine *engine, const char *source, size_t source_length, int32_t source_kind,
                    int32_t result_mode, int32_t compile_only);

/*
 * Operations taking a value: `value_kind` selects the source of the value:
 *   SC_DUK_VALUE_DATA: `value`/`value_length` hold encoded bytes;
 *   SC_DUK_VALUE_EXPRESSION: `value` is the expression source (UTF-8);
 *   SC_DUK_VALUE_STORED: `value` is the stored key, `element` >= 0 picks one array element.
 */
/** Defines (or redefines) the global variable `name`. Fails for read-only system variables. */
int32_t sc_duk_declare(sc_duk_engine *engine, const char *name, size_t name_length, int32_t value_kind,
                       const void *value, size_t value_length, int64_t element);
/** Strict-mode assignment `location = value`: undeclared identifiers and read-only targets throw. */
int32_t sc_duk_assign(sc_duk_engine *engine, const char *location, size_t location_length, int32_t value_kind,
                      const void *value, size_t value_length, int64_t element);
/** Binds a read-only global (accessor whose setter throws TypeError). Data values are deep-frozen,
    stored values are frozen one level deep. */
int32_t sc_duk_set_readonly(sc_duk_engine *engine, const char *name, size_t name_length, int32_t value_kind,
                            const void *value, size_t value_length, int64_t element);
/** Keeps a value in the heap under `key`, out of the scripts' reach. */
int32_t sc_duk_store(sc_duk_engine *engine, const char *key, size_t key_length, int32_t value_kind,
                     const void *value, size_t value_length, int64_t element);
/** Evaluates `expression`, requires an Array and stores a shallow copy; *count receives its length. */
int32_t sc_duk_store_array_copy(sc_duk_engine *engine, const char *key, size_t key_length, const char *expression,
                                size_t expression_length, int64_t *count);
/** Encodes the stored value (result mode DATA). ReferenceError when there is none. */
int32_t sc_duk_stored_value(sc_duk_engine *engine, const char *key, size_t key_length);
/** *exists = 1 when a value is stored under `key`. */
int32_t sc_duk_has_stored(sc_duk_engine *engine, const char *key, size_t key_length, int32_t *exists);
int32_t sc_duk_remove_stored(sc_duk_engine *engine, const char *key, size_t key_length);
/** stored[key][member] = stored[value_key] (an own, writable, enumerable data property). */
int32_t sc_duk_set_stored_member(sc_duk_engine *engine, const char *key, size_t key_length, const char *member,
                                 size_t member_length, const char *value_key, size_t value_key_length);

/** Defines the global function `name`; calls go to the host callback with `function_id`. */
int32_t sc_duk_register_function(sc_duk_engine *engine, const char *name, size_t name_length, int32_t function_id);
/** To be called from the host callback: the function's return value (encoded). */
int32_t sc_duk_host_set_result(sc_duk_engine *engine, const uint8_t *value, size_t value_length);
/** To be called from the host callback: throw `name` (TypeError, RangeError, ... or any) with `message`. */
int32_t sc_duk_host_set_error(sc_duk_engine *engine, const char *name, const char *message);

/** JSON.parse(text), result mode DATA. */
int32_t sc_duk_parse_json(sc_duk_engine *engine, const char *text, size_t text_length);
/** Runs a full garbage collection. */
int32_t sc_duk_collect_garbage(sc_duk_engine *engine);

/* Test hooks: provoke Duktape's fatal handler. Both poison the engine and return SC_DUK_FATAL. */
int32_t sc_duk_debug_fatal(sc_duk_engine *engine, const char *message);
int32_t sc_duk_debug_throw_unprotected(sc_duk_engine *engine);

#ifdef __cplusplus
}
#endif

#endif /* SC_DUK_SHIM_H */
