/*
 * test_machine_trampoline.c - tests of Sources/CMachineLock/machine_trampoline.c, the core's
 * guard and action callbacks for Swift machines, without Swift: the "closures" here are C
 * functions with Swift's calling convention (clang's swiftcall), which record what they are
 * passed. They check what the Swift side relies on: the context's four words (serial, event,
 * argument, configuration) and the closure's context, a new frame of the machine's own for each call, left open after it (the Swift code
 * that called the core puts back the frame it replaced), every closure of a list in order in
 * one frame, a guard's low bit.
 * Built with clang only (swiftcall). Output as the other C tests.
 */
#include "machine_trampoline.h"
#include "machine_callback.h"
#include "test_harness.h"
#include <string.h>

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_CONTEXT __attribute__((swift_context))

/* What one closure call saw: its arguments and the frame it ran in. */
typedef struct call {
    uint64_t serial;
    const sc_event *event;
    const void *argument;
    const uint64_t *configuration;
    void *context;
    void *frame_machine;
    uint64_t frame_serial;
} call;

static call calls[8];
static int call_count;

static void record(uint64_t serial, const sc_event *event, const void *argument, const uint64_t *configuration,
                   void *context) {
    if (call_count < 8)
        calls[call_count] = (call){ serial, event, argument, configuration, context,
                                    machine_callback_current_machine(), machine_callback_serial() };
    call_count++;
}

SWIFTCALL static void action(uint64_t serial, const sc_event *event, const void *argument,
                             const uint64_t *configuration, SWIFT_CONTEXT void *context) {
    record(serial, event, argument, configuration, context);
}

/* A guard answering the byte its context points at: Swift defines only its low bit. */
SWIFTCALL static uint8_t guard(uint64_t serial, const sc_event *event, const void *argument,
                               const uint64_t *configuration, SWIFT_CONTEXT void *context) {
    record(serial, event, argument, configuration, context);
    return *(const uint8_t *)context;
}

static int runtime_a, runtime_b, argument_x;
static const uint64_t configuration_a[2];
static uint8_t answer_true = 1, answer_false = 0xFE, answer_odd = 0x03;
static char closure_1, closure_2, closure_3;

/* Action 0: one closure. Action 1: three (closure_1, then closure_2 and closure_3 in rest).
 * Guards 0, 1, 2 answer answer_true, answer_false, answer_odd. */
static const machine_trampoline_callee more[3] = {
    { (const void *)action, &closure_2, &argument_x },
    { (const void *)action, &closure_3, NULL },
    { NULL, NULL, NULL },
};
static machine_trampoline_list actions[2];
static machine_trampoline_list guards[3];
static machine_trampoline_host host;

static void set_up(void) {
    actions[0] = (machine_trampoline_list){ { (const void *)action, &closure_1, &argument_x }, NULL };
    actions[1] = (machine_trampoline_list){ { (const void *)action, &closure_1, NULL }, more };
    guards[0] = (machine_trampoline_list){ { (const void *)guard, &answer_true, &argument_x }, NULL };
    guards[1] = (machine_trampoline_list){ { (const void *)guard, &answer_false, NULL }, NULL };
    guards[2] = (machine_trampoline_list){ { (const void *)guard, &answer_odd, NULL }, NULL };
    host = (machine_trampoline_host){ &runtime_a, guards, actions, configuration_a };
    call_count = 0;
    memset(calls, 0, sizeof calls);
}

static bool an_action_gets_its_context_in_a_frame_of_its_own(void) {
    set_up();
    sc_event event = { .id = 7, .flags = 3, .data = 99 };
    machine_trampoline_action(&host, NULL, 0, &event);
    CHECK(call_count == 1, "%d calls", call_count);
    CHECK(calls[0].serial != 0 && calls[0].serial == calls[0].frame_serial,
          "serial %llu, frame's %llu", (unsigned long long)calls[0].serial, (unsigned long long)calls[0].frame_serial);
    CHECK(calls[0].frame_machine == &runtime_a, "the frame's machine is not the runtime");
    CHECK(calls[0].event == &event, "the event's address is not the core's");
    CHECK(calls[0].argument == &argument_x && calls[0].context == &closure_1, "argument or closure context");
    CHECK(calls[0].configuration == configuration_a, "not the machine's configuration");
    CHECK(machine_callback_serial() == calls[0].serial && machine_callback_current_machine() == &runtime_a,
          "the callback's frame was not left open");
    machine_callback_restore(NULL, 0);      /* as the Swift caller does once the core returns */
    return true;
}

static bool no_event_is_passed_as_sc_none(void) {
    set_up();
    machine_trampoline_action(&host, NULL, 0, NULL);
    CHECK(call_count == 1 && calls[0].event == &machine_trampoline_no_event, "not the no-event event");
    CHECK(calls[0].event->id == SC_NONE && calls[0].event->flags == 0 && calls[0].event->data == 0,
          "the no-event event is %u/%u/%llu", calls[0].event->id, calls[0].event->flags,
          (unsigned long long)calls[0].event->data);
    return true;
}

static bool a_list_runs_every_closure_in_order_in_one_frame(void) {
    set_up();
    sc_event event = { .id = 1, .flags = 0, .data = 5 };
    machine_trampoline_action(&host, NULL, 1, &event);
    CHECK(call_count == 3, "%d calls", call_count);
    CHECK(calls[0].context == &closure_1 && calls[1].context == &closure_2 && calls[2].context == &closure_3,
          "closures out of order");
    CHECK(calls[0].argument == NULL && calls[1].argument == &argument_x && calls[2].argument == NULL,
          "each closure's own argument");
    for (int i = 0; i < 3; i++)
        CHECK(calls[i].serial == calls[0].serial && calls[i].frame_serial == calls[0].serial
                  && calls[i].event == &event && calls[i].configuration == configuration_a,
              "call %d in another frame or with another event", i);
    machine_callback_restore(NULL, 0);
    return true;
}

static bool a_guard_answers_its_low_bit(void) {
    set_up();
    sc_event event = { .id = 2, .flags = 0, .data = 0 };
    CHECK(machine_trampoline_guard(&host, NULL, 0, &event), "1 is false");
    CHECK(!machine_trampoline_guard(&host, NULL, 1, &event), "0xFE is true");
    CHECK(machine_trampoline_guard(&host, NULL, 2, &event), "3 is false");
    CHECK(call_count == 3 && calls[0].argument == &argument_x && calls[0].frame_machine == &runtime_a,
          "guard's argument or frame");
    CHECK(calls[0].serial != calls[1].serial && calls[1].serial != calls[2].serial,
          "two guards shared a serial");
    machine_callback_restore(NULL, 0);
    return true;
}

/* Machine B's callback sends to machine A, whose guard and actions run inside it: each in a
 * new frame of A's, never B's; B's comes back from the Swift send that called A's core. */
static bool inside_another_callback_each_call_has_a_new_frame_of_its_machine(void) {
    set_up();
    machine_callback_begin(&runtime_b);
    uint64_t outer = machine_callback_serial();
    sc_event event = { .id = 4, .flags = 0, .data = 0 };
    CHECK(machine_trampoline_guard(&host, NULL, 0, &event), "the guard's answer was lost");
    machine_trampoline_action(&host, NULL, 0, &event);
    machine_trampoline_action(&host, NULL, 1, &event);
    CHECK(call_count == 5, "%d calls", call_count);
    for (int i = 0; i < 5; i++)
        CHECK(calls[i].frame_machine == &runtime_a && calls[i].serial == calls[i].frame_serial
                  && calls[i].serial != outer, "call %d not in a frame of A's own", i);
    CHECK(calls[0].serial != calls[1].serial && calls[1].serial != calls[2].serial,
          "a guard and an action shared a frame");
    machine_callback_restore(NULL, 0);
    return true;
}

/* The trampolines take the next block of serials when the thread's runs out. */
static bool serials_stay_unique_across_a_block(void) {
    set_up();
    machine_callback_state.end = machine_callback_state.next;     /* this block used up */
    uint64_t before = machine_callback_state.next;
    machine_trampoline_action(&host, NULL, 0, NULL);
    machine_callback_state.end = machine_callback_state.next;
    machine_trampoline_guard(&host, NULL, 0, NULL);
    CHECK(call_count == 2, "%d calls", call_count);
    CHECK(calls[0].serial != 0 && calls[1].serial != 0 && calls[0].serial != calls[1].serial
              && calls[0].serial != before, "serials %llu %llu", (unsigned long long)calls[0].serial,
          (unsigned long long)calls[1].serial);
    machine_callback_restore(NULL, 0);
    CHECK(calls[0].serial != before && machine_callback_state.end - machine_callback_state.next
              == MACHINE_CALLBACK_SERIAL_BLOCK - 1, "no new block taken");
    return true;
}

int main(void) {
    run("an action gets its context in a frame of its own", an_action_gets_its_context_in_a_frame_of_its_own);
    run("no event is passed as SC_NONE", no_event_is_passed_as_sc_none);
    run("a list runs every closure in order in one frame", a_list_runs_every_closure_in_order_in_one_frame);
    run("a guard answers its low bit", a_guard_answers_its_low_bit);
    run("inside another callback each call has a new frame of its machine",
        inside_another_callback_each_call_has_a_new_frame_of_its_machine);
    run("serials stay unique across a block", serials_stay_unique_across_a_block);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
