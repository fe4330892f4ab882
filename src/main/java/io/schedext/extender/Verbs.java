package io.schedext.extender;

import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verbs the extender serves, by name: filter, prioritize, preempt and bind of the extender
 * protocol, and explain. Adding a verb is one entry here and the service behind it. Immutable.
 */
final class Verbs {

  private final Map<String, Verb<?>> byName = new LinkedHashMap<>();

  /** A table of exactly {@code verbs}. */
  Verbs(List<Verb<?>> verbs) {
    for (Verb<?> v : verbs) {
      if (byName.putIfAbsent(v.name(), v) != null) {
        throw new IllegalArgumentException("verb \"" + v.name() + "\" defined twice");
      }
    }
  }

  /** The extender's verbs, answered by these services. */
  static Verbs of(
      WireCodec codec,
      FilterService filter,
      PrioritizeService prioritize,
      PreemptionService preemption,
      BindService bind,
      ExplainService explain) {
    List<Verb<?>> verbs = new ArrayList<>(schedulingVerbs(codec, filter, prioritize));
    verbs.add(
        new Verb<ExtenderPreemptionArgs>(
            "preempt",
            true,
            false,
            (request, call) -> codec.decode(request.getInputStream(), ExtenderPreemptionArgs.class),
            (args, reason) -> Reply.error(503, reason),
            (call, args) -> Reply.ok(preemption.preempt(call, args))));
    // A bind answers 200 with Error, as kube-scheduler reads a failed bind; it never holds watch
    // events back.
    verbs.add(
        new Verb<ExtenderBindingArgs>(
            "bind",
            false,
            true,
            (request, call) -> codec.decode(request.getInputStream(), ExtenderBindingArgs.class),
            (args, reason) -> Reply.ok(new ExtenderBindingResult(reason)),
            (call, args) -> Reply.ok(bind.bind(call.framework(), args))));
    // Explain reads only the call's snapshot, so it answers even while the state is incomplete.
    verbs.add(
        new Verb<ExplainService.Request>(
            "explain",
            false,
            false,
            (request, call) ->
                new ExplainService.Request(
                    ExplainRequests.decode(codec, request, call.names()),
                    ExplainRequests.wantsText(request)),
            null,
            (call, r) -> ExplainService.reply(explain.explain(call, r.args()), r.text())));
    return new Verbs(verbs);
  }

  /**
   * Filter and prioritize alone, defined as {@link #of} defines them (the same code, so that the
   * calls of separate verbs, {@link SeparateVerbs}, run what kube-scheduler's will).
   */
  static Verbs scheduling(WireCodec codec, FilterService filter, PrioritizeService prioritize) {
    return new Verbs(schedulingVerbs(codec, filter, prioritize));
  }

  private static List<Verb<?>> schedulingVerbs(
      WireCodec codec, FilterService filter, PrioritizeService prioritize) {
    Verb.Decoder<ExtenderArgs> scheduling =
        (request, call) ->
            codec.decodeSchedulingArgs(
                request.getInputStream(), request.getContentLengthLong(), call.names());
    return List.of(
        // While not ready, filter answers in its own form: the error, and no node in the field the
        // request used.
        new Verb<>(
            "filter",
            true,
            false,
            scheduling,
            (args, reason) -> Reply.ok(FilterService.notReady(args, reason)),
            (call, args) -> Reply.ok(filter.filter(call, args))),
        new Verb<>(
            "prioritize",
            true,
            false,
            scheduling,
            (args, reason) -> Reply.error(503, reason),
            (call, args) -> Reply.ok(prioritize.prioritize(call, args))));
  }

  /** The verb called {@code name}, or null. */
  Verb<?> get(String name) {
    return byName.get(name);
  }

  /** Every verb, in order. */
  Collection<Verb<?>> all() {
    return byName.values();
  }

  /** The names of every verb, in order, for error messages. */
  String names() {
    return String.join(", ", byName.keySet());
  }
}
