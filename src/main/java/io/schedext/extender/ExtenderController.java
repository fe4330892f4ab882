package io.schedext.extender;

import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * The HTTP face of the extender: {@code POST /scheduler/{verb}} for the default profile and {@code
 * POST /profiles/{profile}/{verb}} for a named one, verbs filter, prioritize, preempt, bind and
 * explain, and {@code GET .../explain/{namespace}/{name}} to explain a pod the extender knows
 * (JSON, or text for people). Every verb is served the same way from its definition in {@link
 * Verbs}: the profile is resolved once (an unknown one is a 404), the call's snapshot is taken once
 * ({@link Call}), the request decoded against it, readiness checked, and the verb's handler
 * answers. Every client mistake is a 4xx whose JSON body has the {@code Error} field filled.
 */
@RestController
class ExtenderController {

  private static final Logger log = LoggerFactory.getLogger(ExtenderController.class);

  /**
   * A bind's reply waits for the bind itself (whose every API call is bounded), never for a servlet
   * timeout.
   */
  private static final long NO_ASYNC_TIMEOUT = 0L;

  /** The one asynchronous verb with routes of its own. */
  private static final String ASYNC_ROUTED = "bind";

  private final Verbs verbs;
  private final ExplainService explain;
  private final Frameworks frameworks;
  private final SchedulerCache cache;
  private final SnapshotNames nameIndexes = new SnapshotNames();
  private final WireCodec codec;
  private final ClusterSource source;
  private final ExtenderMetrics metrics;
  private final EventGate gate;
  private final BindWorkers bindWorkers;

  ExtenderController(
      Verbs verbs,
      ExplainService explain,
      Frameworks frameworks,
      SchedulerCache cache,
      WireCodec codec,
      ClusterSource source,
      ExtenderMetrics metrics,
      EventGate gate,
      BindWorkers bindWorkers) {
    this.verbs = verbs;
    this.explain = explain;
    this.frameworks = frameworks;
    this.cache = cache;
    this.codec = codec;
    this.source = source;
    this.metrics = metrics;
    this.gate = gate;
    this.bindWorkers = bindWorkers;
    // A Servlet-async reply needs a handler method of its own; bind has its two, another async verb
    // would need its.
    for (Verb<?> v : verbs.all()) {
      if (v.async() && !v.name().equals(ASYNC_ROUTED)) {
        throw new IllegalStateException(
            "verb \""
                + v.name()
                + "\" runs on the bind workers but has no asynchronous "
                + "route: add its mappings to ExtenderController as bind's");
      }
    }
  }

  @PostMapping("/scheduler/{verb}")
  void defaultProfile(
      @PathVariable String verb, HttpServletRequest request, HttpServletResponse response) {
    handle(null, verb, request, response);
  }

  @PostMapping("/scheduler/bind")
  DeferredResult<ResponseEntity<byte[]>> bindDefaultProfile(HttpServletRequest request) {
    return bind(null, request);
  }

  @PostMapping("/profiles/{profile}/bind")
  DeferredResult<ResponseEntity<byte[]>> bindNamedProfile(
      @PathVariable String profile, HttpServletRequest request) {
    return bind(profile, request);
  }

  @PostMapping("/profiles/{profile}/{verb}")
  void namedProfile(
      @PathVariable String profile,
      @PathVariable String verb,
      HttpServletRequest request,
      HttpServletResponse response) {
    handle(profile, verb, request, response);
  }

  /**
   * {@code GET /scheduler/explain/{namespace}/{name}}: explains a pod the extender knows, by name.
   */
  @GetMapping("/scheduler/explain/{namespace}/{name}")
  void explainByName(
      @PathVariable String namespace,
      @PathVariable String name,
      HttpServletRequest request,
      HttpServletResponse response) {
    answer("explain", () -> explainedByName(null, namespace, name, request), response);
  }

  /** {@code GET /profiles/{profile}/explain/{namespace}/{name}}: the same under a named profile. */
  @GetMapping("/profiles/{profile}/explain/{namespace}/{name}")
  void explainByNameInProfile(
      @PathVariable String profile,
      @PathVariable String namespace,
      @PathVariable String name,
      HttpServletRequest request,
      HttpServletResponse response) {
    answer("explain", () -> explainedByName(profile, namespace, name, request), response);
  }

  /**
   * Answers one call. The reply is encoded into a reused buffer first and sent with its {@code
   * Content-Length} in one write (a prioritize reply for 5,000 nodes is ~150 KB; streamed, it went
   * out in many small chunked writes), and a reply that cannot be encoded becomes a 500 with the
   * reason instead of a truncated body.
   */
  private void handle(
      String profile, String name, HttpServletRequest request, HttpServletResponse response) {
    Verb<?> verb = verbs.get(name);
    if (verb == null) {
      answer(
          name,
          () -> {
            throw new BadRequestException(
                404, "unknown verb \"" + name + "\"; verbs: " + verbs.names());
          },
          response);
      return;
    }
    // The calls kube-scheduler waits on for each pod go before watch events (see EventGate).
    if (verb.gated()) {
      gate.requestStarted();
    }
    try {
      answer(verb.name(), () -> reply(verb, profile, request), response);
    } finally {
      if (verb.gated()) {
        gate.requestFinished();
      }
    }
  }

  /** Serves one synchronous verb: resolve the call, decode, check readiness, handle. */
  private <A> Reply reply(Verb<A> verb, String profile, HttpServletRequest request)
      throws IOException {
    Call call = call(profile);
    A args = verb.decoder().decode(request, call);
    Reply notReady = verb.unlessReady(args, source);
    return notReady != null ? notReady : verb.handler().handle(call, args);
  }

  /**
   * The call of a request to {@code profile} (null = the default profile); 404 when the profile is
   * unknown.
   */
  private Call call(String profile) {
    Framework fw = profile == null ? frameworks.defaultFramework() : frameworks.get(profile);
    if (fw == null) {
      throw new BadRequestException(
          404,
          "unknown profile \""
              + profile
              + "\"; profiles: "
              + frameworks.all().stream().map(Framework::profileName).toList());
    }
    return new Call(fw, cache::snapshot, nameIndexes);
  }

  private void answer(String verb, ReplyWork work, HttpServletResponse response) {
    long start = System.nanoTime();
    Answer answer = attempt(verb, work);
    String outcome = answer.outcome();
    if (answer.reply().text() != null) {
      outcome = sendText(verb, answer.reply(), response, outcome);
      metrics.request(verb, outcome, System.nanoTime() - start);
      return;
    }
    ReplyBuffer buf = codec.borrowBuffer();
    try {
      Reply reply = encode(verb, answer.reply(), buf);
      if (reply != answer.reply()) {
        outcome = "error";
      }
      response.setStatus(reply.status());
      response.setContentType(MediaType.APPLICATION_JSON_VALUE);
      response.setContentLength(buf.size());
      response.getOutputStream().write(buf.array(), 0, buf.size());
    } catch (IOException e) {
      // The caller went away (kube-scheduler's httpTimeout, a closed connection): nothing left to
      // answer.
      outcome = "aborted";
      log.debug("{} reply not delivered: {}", verb, e.toString());
    } finally {
      codec.release(buf);
      metrics.request(verb, outcome, System.nanoTime() - start);
    }
  }

  /** A reply and the outcome label its request is counted under. */
  private record Answer(Reply reply, String outcome) {}

  /**
   * Work that produces a reply (null: there is more to do elsewhere); may throw what {@link
   * #attempt} maps.
   */
  private interface ReplyWork {
    Reply get() throws IOException;
  }

  /**
   * The one mapping of failures to replies: client mistakes are 4xx, anything else a logged 500.
   */
  private Answer attempt(String verb, ReplyWork work) {
    try {
      Reply reply = work.get();
      return new Answer(reply, reply == null || reply.status() == 200 ? "ok" : "unavailable");
    } catch (BadRequestException e) {
      return new Answer(
          Reply.error(e.httpStatus(), e.getMessage()),
          e.httpStatus() == 404 ? "not_found" : "bad_request");
    } catch (IOException e) {
      return new Answer(
          Reply.error(400, "cannot read request body: " + e.getMessage()), "bad_request");
    } catch (RuntimeException e) {
      log.error("{} failed", verb, e);
      return new Answer(
          Reply.error(
              500,
              "internal error: "
                  + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())),
          "error");
    }
  }

  /**
   * The answer to work that failed beyond what {@link #attempt} catches (an Error): a logged 500,
   * never no reply.
   */
  private static Answer failed(String verb, Throwable t) {
    log.error("{} failed", verb, t);
    return new Answer(Reply.error(500, "internal error: " + t), "error");
  }

  /**
   * Encodes {@code reply} into {@code buf}; a reply that cannot be encoded is replaced by a 500,
   * which is returned.
   */
  private Reply encode(String verb, Reply reply, ReplyBuffer buf) {
    try {
      codec.encode(reply.body(), buf);
      return reply;
    } catch (RuntimeException e) {
      log.error("{} reply could not be encoded", verb, e);
      Reply failed =
          Reply.error(
              500,
              "internal error: cannot encode the reply: "
                  + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      codec.encode(failed.body(), buf);
      return failed;
    }
  }

  /**
   * Answers a bind: the body is read and checked on the HTTP worker, the bind itself runs on {@link
   * BindWorkers} and the worker is released meanwhile (Servlet async), so binds stuck on the API
   * server hold no HTTP worker. The reply waits for the bind however long it takes (each of its API
   * calls is bounded): an answer before the bind ended would have to guess its outcome. With every
   * bind thread busy the bind is refused at once.
   */
  private DeferredResult<ResponseEntity<byte[]>> bind(String profile, HttpServletRequest request) {
    return async(verbs.get(ASYNC_ROUTED), profile, request);
  }

  /** A request read on the HTTP worker, to be answered on a bind worker. */
  private record Decoded<A>(Call call, A args) {}

  /**
   * Serves a verb that runs on the bind workers: the call is resolved, the body read and readiness
   * checked on the HTTP worker, which is then released (Servlet async) while a bind worker runs the
   * handler.
   */
  private <A> DeferredResult<ResponseEntity<byte[]>> async(
      Verb<A> verb, String profile, HttpServletRequest request) {
    long start = System.nanoTime();
    DeferredResult<ResponseEntity<byte[]>> out = new DeferredResult<>(NO_ASYNC_TIMEOUT);
    List<Decoded<A>> decoded = new ArrayList<>(1);
    Answer checked =
        attempt(
            verb.name(),
            () -> {
              Call call = call(profile);
              A args = verb.decoder().decode(request, call);
              decoded.add(new Decoded<>(call, args));
              return verb.unlessReady(args, source);
            });
    if (checked.reply() != null) {
      out.setResult(entity(verb.name(), checked, start));
      return out;
    }
    try {
      Decoded<A> d = decoded.get(0);
      bindWorkers
          .submit(() -> attempt(verb.name(), () -> verb.handler().handle(d.call(), d.args())))
          .whenComplete(
              (a, t) ->
                  out.setResult(
                      entity(verb.name(), a != null ? a : failed(verb.name(), t), start)));
    } catch (RejectedExecutionException e) {
      metrics.bind("refused");
      out.setResult(
          entity(
              verb.name(),
              new Answer(
                  Reply.ok(
                      new ExtenderBindingResult(
                          "bind refused: all "
                              + bindWorkers.workers()
                              + " bind workers (extender.bind.workers) are busy; nothing was done")),
                  "refused"),
              start));
    }
    return out;
  }

  /** The reply of a bind as a whole body with its length; the request is counted here. */
  private ResponseEntity<byte[]> entity(String verb, Answer answer, long start) {
    ReplyBuffer buf = codec.borrowBuffer();
    try {
      Reply reply = encode(verb, answer.reply(), buf);
      metrics.request(
          verb, reply == answer.reply() ? answer.outcome() : "error", System.nanoTime() - start);
      return ResponseEntity.status(reply.status())
          .contentType(MediaType.APPLICATION_JSON)
          .body(buf.toByteArray());
    } finally {
      codec.release(buf);
    }
  }

  /**
   * Explains a known pod; while the state is incomplete a missing pod proves nothing, so that is a
   * 503.
   */
  private Reply explainedByName(
      String profile, String namespace, String name, HttpServletRequest request) {
    Call call = call(profile);
    if (!source.isReady()) {
      return Reply.error(503, "extender cluster state is not ready: " + source.notReadyReason());
    }
    return ExplainService.reply(
        explain.explain(call, namespace, name), ExplainRequests.wantsText(request));
  }

  private static String sendText(
      String verb, Reply reply, HttpServletResponse response, String outcome) {
    byte[] bytes = reply.text().getBytes(StandardCharsets.UTF_8);
    try {
      response.setStatus(reply.status());
      response.setContentType("text/plain;charset=UTF-8");
      response.setContentLength(bytes.length);
      response.getOutputStream().write(bytes);
      return outcome;
    } catch (IOException e) {
      log.debug("{} reply not delivered: {}", verb, e.toString());
      return "aborted";
    }
  }
}
