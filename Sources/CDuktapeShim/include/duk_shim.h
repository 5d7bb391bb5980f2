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
#ifndef DUKSHIM_H
#define DUKSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One Duktape heap plus the shim's bookkeeping. Opaque. */
typedef struct dukshim_engine dukshim_engine;
/** A memory budget several engines can share (one per SCXML document tree). Opaque. */
typedef struct dukshim_budget dukshim_budget;

/* Status codes returned by the operations. */
#define DUKSHIM_OK 0
#define DUKSHIM_ERROR 1 /* a JS exception: see dukshim_error_name / _message / _line */
#define DUKSHIM_FATAL 2 /* Duktape's fatal handler ran: the engine is unusable from now on */

/* What a source text is. */
#define DUKSHIM_SOURCE_EXPRESSION 0 /* one expression, evaluated as "(source)" */
#define DUKSHIM_SOURCE_SCRIPT 1     /* a program (statements), global code */
#define DUKSHIM_SOURCE_LOCATION 2   /* an assignment target: compiled as a strict-mode `location = value` */

/* What an operation leaves in dukshim_result. */
#define DUKSHIM_RESULT_NONE 0
#define DUKSHIM_RESULT_DATA 1    /* the value, encoded as above */
#define DUKSHIM_RESULT_BOOLEAN 2 /* 't' or 'f' (ECMAScript ToBoolean) */
#define DUKSHIM_RESULT_STRING 3  /* 's' ... (ECMAScript ToString) */

/* Where an operation takes its value from. */
#define DUKSHIM_VALUE_DATA 0       /* encoded bytes */
#define DUKSHIM_VALUE_EXPRESSION 1 /* an expression evaluated first */
#define DUKSHIM_VALUE_STORED 2     /* a value stored with dukshim_store (optionally one element of it) */

/**
 * Called when a script calls a host function registered with dukshim_register_function.
 * `arguments` is an encoded array ('a'), valid during the call only. Report the outcome with
 * dukshim_host_set_result (return DUKSHIM_OK) or dukshim_host_set_error (return DUKSHIM_ERROR).
 * The callback may call back into the engine (nested operations are supported).
 */
typedef int32_t (*dukshim_host_callback)(void *host_context, dukshim_engine *engine, int32_t function_id,
                                        const uint8_t *arguments, size_t arguments_length);

/**
 * A budget of `limit` bytes (0: unlimited) for the heaps created with it, counting every block's
 * payload and the shim's header. Reference counted: created with one reference, each engine
 * holds one more until it is destroyed. Thread-safe (engines of one budget may run on different
 * threads). NULL when out of memory.
 */
dukshim_budget *dukshim_budget_create(size_t limit);
void dukshim_budget_retain(dukshim_budget *budget);
void dukshim_budget_release(dukshim_budget *budget); /* NULL is ignored */
size_t dukshim_budget_limit(const dukshim_budget *budget);
/** Bytes currently held by all heaps of the budget (and by the charges below). */
size_t dukshim_budget_in_use(const dukshim_budget *budget);
/** Charges `bytes` held outside the heaps (a value copied out of an engine); 0 (and nothing
    charged) when that would pass the limit. Give them back with dukshim_budget_refund. */
int32_t dukshim_budget_charge(dukshim_budget *budget, size_t bytes);
void dukshim_budget_refund(dukshim_budget *budget, size_t bytes);
/** Frees the engine's copy of the last result when it is large (the caller has decoded it), so
    an engine keeps no payload-sized buffer between operations. */
void dukshim_result_trim(dukshim_engine *engine);

/**
 * Creates a heap charging `budget` (which it retains), whose operations each stop after
 * `time_limit_ns` nanoseconds of running (0: no limit) with a RangeError "execution timeout".
 * NULL on failure (also when the budget cannot hold a fresh heap, about 100 KB).
 */
dukshim_engine *dukshim_engine_create(dukshim_budget *budget, uint64_t time_limit_ns);
/** Changes the time limit of later operations (0: none). */
void dukshim_engine_set_time_limit(dukshim_engine *engine, uint64_t time_limit_ns);
uint64_t dukshim_engine_time_limit(const dukshim_engine *engine);
/** Destroys the heap and frees everything. Safe on poisoned engines and NULL. */
void dukshim_engine_destroy(dukshim_engine *engine);
/** Installs (or, with NULL, removes) the host function callback. */
void dukshim_engine_set_host(dukshim_engine *engine, void *host_context, dukshim_host_callback callback);
/** 1 once a fatal error happened. */
int32_t dukshim_engine_is_poisoned(const dukshim_engine *engine);
/** Bytes currently allocated by the heap (payload and the shim's block headers). */
size_t dukshim_engine_memory_in_use(const dukshim_engine *engine);

/* Outcome of the last operation (valid until the next operation). */
const char *dukshim_error_name(const dukshim_engine *engine);    /* NUL-terminated UTF-8, may be "" */
const char *dukshim_error_message(const dukshim_engine *engine); /* NUL-terminated UTF-8 */
int64_t dukshim_error_line(const dukshim_engine *engine);        /* -1 when unknown */
const uint8_t *dukshim_result(const dukshim_engine *engine, size_t *length);

/** Evaluates (or, with compile_only, only compiles) `source`. */
int32_t dukshim_eval(dukshim_engine *engine, const char *source, size_t source_length, int32_t source_kind,
                    int32_t result_mode, int32_t compile_only);

/**
 * Compiles `source` as `source_kind` (an expression, a script, or a location) once and keeps it
 * in the engine; *function_id receives the id later operations call it by. A syntax error is
 * reported like any error (name, message, line) and leaves no function. Ids stay valid for the
 * engine's life.
 */
int32_t dukshim_compile(dukshim_engine *engine, const char *source, size_t source_length, int32_t source_kind,
                        int32_t *function_id);
/**
 * Bytecode of a compiled source (duk_dump_function), left in dukshim_result, and the way back:
 * dukshim_load_compiled adds a function loaded from such bytes and gives its id. Duktape does
 * not check bytecode: load only bytes an engine of this process dumped (same Duktape build).
 */
int32_t dukshim_dump_compiled(dukshim_engine *engine, int32_t function_id);
int32_t dukshim_load_compiled(dukshim_engine *engine, const uint8_t *bytecode, size_t length, int32_t *function_id);
/** Drops every compiled source: ids given so far are invalid from now on. */
int32_t dukshim_forget_compiled(dukshim_engine *engine);
/**
 * Compiles `<assign location expr>` once as one strict-mode function (`location = (expression)`)
 * and keeps it like dukshim_compile; dukshim_call_compiled runs the assignment (one call, no
 * value leaves the engine). Errors in either text are reported like any error.
 */
int32_t dukshim_compile_assignment(dukshim_engine *engine, const char *location, size_t location_length,
                                   const char *expression, size_t expression_length, int32_t *function_id);
/** Calls a compiled expression or script (global `this`); results as dukshim_eval's. */
int32_t dukshim_call_compiled(dukshim_engine *engine, int32_t function_id, int32_t result_mode);

/*
 * `_event`: the host binds each event's fields here without any script running (no Duktape call:
 * the text is copied into buffers the engine reuses). Scripts see one object per engine, frozen
 * to them, which the next operation brings up to date with the binding before any script runs
 * (only members whose text changed are redefined). Its members, in this order: name, type,
 * sendid, origin, origintype, invokeid, data (undefined unless given; converted when a script
 * first reads it after the binding, then the same value for every read until the next binding;
 * its contents are not frozen), raw (only when given).
 */
#define DUKSHIM_EVENT_NAME 0
#define DUKSHIM_EVENT_TYPE 1
#define DUKSHIM_EVENT_SENDID 2
#define DUKSHIM_EVENT_ORIGIN 3
#define DUKSHIM_EVENT_ORIGINTYPE 4
#define DUKSHIM_EVENT_INVOKEID 5
#define DUKSHIM_EVENT_RAW 6
#define DUKSHIM_EVENT_FIELD_COUNT 7
/** Defines the global `_event` as this binding's read-only accessor (once per engine; until the
    first binding it reads as undefined). Engines that never call it have no `_event`. */
int32_t dukshim_event_install(dukshim_engine *engine);
/** Starts binding a new event: every field absent, no data. */
void dukshim_event_begin(dukshim_engine *engine);
/** Binds an event that is only a name sent from outside: dukshim_event_begin, then the name (UTF-8)
    and the type "external"; 0 when out of memory (as dukshim_event_set_field). */
int32_t dukshim_event_bind_external(dukshim_engine *engine, const char *name, size_t name_length);
/** Sets one field (DUKSHIM_EVENT_*) to UTF-8 text; 0 when out of memory (the field stays absent). */
int32_t dukshim_event_set_field(dukshim_engine *engine, int32_t field, const char *text, size_t text_length);
/** Sets `data`: encoded bytes (DUKSHIM_VALUE_DATA) or the key of a stored value
    (DUKSHIM_VALUE_STORED). Data the engine cannot hold (nested too deeply) reads as undefined.
    0 when out of memory (no data). */
int32_t dukshim_event_set_data(dukshim_engine *engine, int32_t value_kind, const void *value, size_t value_length);

/*
 * Operations taking a value: `value_kind` selects the source of the value:
 *   DUKSHIM_VALUE_DATA: `value`/`value_length` hold encoded bytes;
 *   DUKSHIM_VALUE_EXPRESSION: `value` is the expression source (UTF-8);
 *   DUKSHIM_VALUE_STORED: `value` is the stored key, `element` >= 0 picks one array element.
 */
/** Defines (or redefines) the global variable `name`. Fails for read-only system variables. */
int32_t dukshim_declare(dukshim_engine *engine, const char *name, size_t name_length, int32_t value_kind,
                       const void *value, size_t value_length, int64_t element);
/** Strict-mode assignment `location = value` through a compiled location (DUKSHIM_SOURCE_LOCATION):
    undeclared identifiers and read-only targets throw. */
int32_t dukshim_assign(dukshim_engine *engine, int32_t location_id, int32_t value_kind, const void *value,
                       size_t value_length, int64_t element);
/** Binds a read-only global (accessor whose setter throws TypeError). Data values are deep-frozen,
    stored values are frozen one level deep. */
int32_t dukshim_set_readonly(dukshim_engine *engine, const char *name, size_t name_length, int32_t value_kind,
                            const void *value, size_t value_length, int64_t element);
/** Keeps a value in the heap under `key`, out of the scripts' reach. */
int32_t dukshim_store(dukshim_engine *engine, const char *key, size_t key_length, int32_t value_kind,
                     const void *value, size_t value_length, int64_t element);
/** Calls the compiled expression `array_id`, requires an Array and stores a shallow copy; *count
    receives its length. */
int32_t dukshim_store_array_copy(dukshim_engine *engine, const char *key, size_t key_length, int32_t array_id,
                                 int64_t *count);
/** One `<foreach>` step in one operation: assigns stored[key][element] through the compiled
    location `item_id`, then (unless `index_id` is -1) `element` through `index_id`. On an error
    *failed_part says which assignment failed (0: the item, 1: the index). */
int32_t dukshim_foreach_step(dukshim_engine *engine, const char *key, size_t key_length, size_t element,
                             int32_t item_id, int32_t index_id, int32_t *failed_part);
/** Encodes the stored value (result mode DATA). ReferenceError when there is none. */
int32_t dukshim_stored_value(dukshim_engine *engine, const char *key, size_t key_length);
/** *exists = 1 when a value is stored under `key`. */
int32_t dukshim_has_stored(dukshim_engine *engine, const char *key, size_t key_length, int32_t *exists);
int32_t dukshim_remove_stored(dukshim_engine *engine, const char *key, size_t key_length);
/** stored[key][member] = stored[value_key] (an own, writable, enumerable data property). */
int32_t dukshim_set_stored_member(dukshim_engine *engine, const char *key, size_t key_length, const char *member,
                                 size_t member_length, const char *value_key, size_t value_key_length);

/** Defines the global function `name`; calls go to the host callback with `function_id`. */
int32_t dukshim_register_function(dukshim_engine *engine, const char *name, size_t name_length, int32_t function_id);
/** To be called from the host callback: the function's return value (encoded). */
int32_t dukshim_host_set_result(dukshim_engine *engine, const uint8_t *value, size_t value_length);
/** To be called from the host callback: throw `name` (TypeError, RangeError, ... or any) with `message`. */
int32_t dukshim_host_set_error(dukshim_engine *engine, const char *name, const char *message);

/** JSON.parse(text), result mode DATA. */
int32_t dukshim_parse_json(dukshim_engine *engine, const char *text, size_t text_length);
/** Runs a full garbage collection. */
int32_t dukshim_collect_garbage(dukshim_engine *engine);

/* Test hooks: provoke Duktape's fatal handler. Both poison the engine and return DUKSHIM_FATAL. */
int32_t dukshim_debug_fatal(dukshim_engine *engine, const char *message);
int32_t dukshim_debug_throw_unprotected(dukshim_engine *engine);

#ifdef __cplusplus
}
#endif

#endif /* DUKSHIM_H */
