package io.schedext.extender;

import io.schedext.cache.EventGate;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.ReplyBuffer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * The HTTP face of the extender: {@code POST /scheduler/{verb}} for the default profile and
 * {@code POST /profiles/{profile}/{verb}} for a named one, verbs filter, prioritize, preempt, bind and explain, and
 * {@code GET .../explain/{namespace}/{name}} to explain a pod the extender knows (JSON, or text for people). Decodes
 * with the fabric8-aware {@link WireCodec}, delegates to {@link ExtenderService}, and answers every client mistake
 * with a 4xx whose JSON body has the {@code Error} field filled.
 */
@RestController
class ExtenderController {

  private static final Logger log = LoggerFactory.getLogger(ExtenderController.class);
  /** A bind's reply waits for the bind itself (whose every API call is bounded), never for a servlet timeout. */
  private static final long NO_ASYNC_TIMEOUT = 0L;

  private final ExtenderService service;
  private final WireCodec codec;
  private final ClusterSource source;
  private final ExtenderMetrics metrics;
  private final EventGate gate;
  private final BindWorkers bindWorkers;

  ExtenderController(ExtenderService service, WireCodec codec, ClusterSource source, ExtenderMetrics metrics,
      EventGate gate, BindWorkers bindWorkers) {
    this.bindWorkers = bindWorkers;
    this.service = service;
    this.codec = codec;
    this.source = source;
    this.metrics = metrics;
    this.gate = gate;
  }

  @PostMapping("/scheduler/{verb}")
  void defaultProfile(@PathVariable String verb, HttpServletRequest request, HttpServletResponse response) {
    handle(null, verb, request, response);
  }

  @PostMapping("/scheduler/bind")
  DeferredResult<ResponseEntity<byte[]>> bindDefaultProfile(HttpServletRequest request) {
    return bind(null, request);
  }

  @PostMapping("/profiles/{profile}/bind")
  DeferredResult<ResponseEntity<byte[]>> bindNamedProfile(@PathVariable String profile, HttpServletRequest request) {
    return bind(profile, request);
  }

  @PostMapping("/profiles/{profile}/{verb}")
  void namedProfile(@PathVariable String profile, @PathVariable String verb, HttpServletRequest request,
      HttpServletResponse response) {
    handle(profile, verb, request, response);
  }

  /** {@code GET /scheduler/explain/{namespace}/{name}}: explains a pod the extender knows, by name. */
  @GetMapping("/scheduler/explain/{namespace}/{name}")
  void explainByName(@PathVariable String namespace, @PathVariable String name, HttpServletRequest request,
      HttpServletResponse response) {
    answer("explain", () -> explainedByName(null, namespace, name, request), response);
  }

  /** {@code GET /profiles/{profile}/explain/{namespace}/{name}}: the same under a named profile. */
  @GetMapping("/profiles/{profile}/explain/{namespace}/{name}")
  void explainByNameInProfile(@PathVariable String profile, @PathVariable String namespace,
      @PathVariable String name, HttpServletRequest request, HttpServletResponse response) {
    answer("explain", () -> explainedByName(profile, namespace, name, request), response);
  }

  /**
   * A status and the object its JSON body encodes, or the text of a {@code text/plain} body.
   *
   * @param status the HTTP status
   * @param body the object to encode as JSON (when text is null)
   * @param text the plain-text body, or null
   */
  private record Reply(int status, Object body, String text) {}

  /**
   * Answers one call. The reply is encoded into a reused buffer first and sent with its {@code Content-Length} in one
   * write (a prioritize reply for 5,000 nodes is ~150 KB; streamed, it went out in many small chunked writes), and a
   * reply that cannot be encoded becomes a 500 with the reason instead of a truncated body.
   */
  private void handle(String profile, String verb, HttpServletRequest request, HttpServletResponse response) {
    // The calls kube-scheduler waits on for each pod go before watch events (see EventGate).
    boolean gated = "filter".equals(verb) || "prioritize".equals(verb) || "preempt".equals(verb);
    if (gated) {
      gate.requestStarted();
    }
    try {
      answer(verb, () -> reply(profile, verb, request), response);
    } finally {
      if (gated) {
        gate.requestFinished();
      }
    }
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
      // The caller went away (kube-scheduler's httpTimeout, a closed connection): nothing left to answer.
      outcome = "aborted";
      log.debug("{} reply not delivered: {}", verb, e.toString());
    } finally {
      codec.release(buf);
      metrics.request(verb, outcome, System.nanoTime() - start);
    }
  }

  /** A reply and the outcome label its request is counted under. */
  private record Answer(Reply reply, String outcome) {}

  /** Work that produces a reply (null: there is more to do elsewhere); may throw what {@link #attempt} maps. */
  private interface ReplyWork {
    Reply get() throws IOException;
  }

  /** The one mapping of failures to replies: client mistakes are 4xx, anything else a logged 500. */
  private Answer attempt(String verb, ReplyWork work) {
    try {
      Reply reply = work.get();
      return new Answer(reply, reply == null || reply.status() == 200 ? "ok" : "unavailable");
    } catch (BadRequestException e) {
      return new Answer(error(e.httpStatus(), e.getMessage()), e.httpStatus() == 404 ? "not_found" : "bad_request");
    } catch (IOException e) {
      return new Answer(error(400, "cannot read request body: " + e.getMessage()), "bad_request");
    } catch (RuntimeException e) {
      log.error("{} failed", verb, e);
      return new Answer(error(500, "internal error: "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())), "error");
    }
  }

  /** The answer to work that failed beyond what {@link #attempt} catches (an Error): a logged 500, never no reply. */
  private static Answer failed(String verb, Throwable t) {
    log.error("{} failed", verb, t);
    return new Answer(error(500, "internal error: " + t), "error");
  }

  /** Encodes {@code reply} into {@code buf}; a reply that cannot be encoded is replaced by a 500, which is returned. */
  private Reply encode(String verb, Reply reply, ReplyBuffer buf) {
    try {
      codec.encode(reply.body(), buf);
      return reply;
    } catch (RuntimeException e) {
      log.error("{} reply could not be encoded", verb, e);
      Reply failed = error(500, "internal error: cannot encode the reply: "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      codec.encode(failed.body(), buf);
      return failed;
    }
  }

  /**
   * Answers a bind: the body is read and checked on the HTTP worker, the bind itself runs on {@link BindWorkers} and
   * the worker is released meanwhile (Servlet async), so binds stuck on the API server hold no HTTP worker. The reply
   * waits for the bind however long it takes (each of its API calls is bounded): an answer before the bind ended would
   * have to guess its outcome. With every bind thread busy the bind is refused at once.
   */
  private DeferredResult<ResponseEntity<byte[]>> bind(String profile, HttpServletRequest request) {
    long start = System.nanoTime();
    DeferredResult<ResponseEntity<byte[]>> out = new DeferredResult<>(NO_ASYNC_TIMEOUT);
    ExtenderBindingArgs[] args = new ExtenderBindingArgs[1];
    Answer checked = attempt("bind", () -> {
      args[0] = codec.decode(request.getInputStream(), ExtenderBindingArgs.class);
      service.framework(profile);
      if (!source.isReady()) {
        return ok(new ExtenderBindingResult("extender cluster state is not ready: " + source.notReadyReason()));
      }
      return null;
    });
    if (checked.reply() != null) {
      out.setResult(entity(checked, start));
      return out;
    }
    try {
      bindWorkers.submit(() -> attempt("bind", () -> ok(service.bind(profile, args[0]))))
          .whenComplete((a, t) -> out.setResult(entity(a != null ? a : failed("bind", t), start)));
    } catch (RejectedExecutionException e) {
      metrics.bind("refused");
      out.setResult(entity(new Answer(ok(new ExtenderBindingResult("bind refused: all " + bindWorkers.workers()
          + " bind workers (extender.bind.workers) are busy; nothing was done")), "refused"), start));
    }
    return out;
  }

  /** The reply of a bind as a whole body with its length; the request is counted here. */
  private ResponseEntity<byte[]> entity(Answer answer, long start) {
    ReplyBuffer buf = codec.borrowBuffer();
    try {
      Reply reply = encode("bind", answer.reply(), buf);
      metrics.request("bind", reply == answer.reply() ? answer.outcome() : "error", System.nanoTime() - start);
      return ResponseEntity.status(reply.status()).contentType(MediaType.APPLICATION_JSON)
          .body(buf.toByteArray());
    } finally {
      codec.release(buf);
    }
  }

  private Reply reply(String profile, String verb, HttpServletRequest request) throws IOException {
    switch (verb) {
      case "filter" -> {
        ExtenderArgs args = codec.decode(request.getInputStream(), ExtenderArgs.class, service.nodeNames());
        service.framework(profile);
        if (!source.isReady()) {
          return ok(ExtenderService.notReady(args, "extender cluster state is not ready: "
              + source.notReadyReason()));
        }
        return ok(service.filter(profile, args));
      }
      case "prioritize" -> {
        ExtenderArgs args = codec.decode(request.getInputStream(), ExtenderArgs.class, service.nodeNames());
        service.framework(profile);
        if (!source.isReady()) {
          return error(503, "extender cluster state is not ready: " + source.notReadyReason());
        }
        return ok(service.prioritize(profile, args));
      }
      case "preempt" -> {
        ExtenderPreemptionArgs args =
            codec.decode(request.getInputStream(), ExtenderPreemptionArgs.class);
        service.framework(profile);
        if (!source.isReady()) {
          return error(503, "extender cluster state is not ready: " + source.notReadyReason());
        }
        return ok(service.preempt(profile, args));
      }
      case "explain" -> {
        return explained(service.explain(profile, ExplainRequests.decode(codec, request, service.nodeNames())),
            request);
      }
      default -> throw new BadRequestException(404,
          "unknown verb \"" + verb + "\"; verbs: filter, prioritize, preempt, bind, explain");
    }
  }

  /** Explains a known pod; while the state is incomplete a missing pod proves nothing, so that is a 503. */
  private Reply explainedByName(String profile, String namespace, String name, HttpServletRequest request) {
    service.framework(profile);
    if (!source.isReady()) {
      return error(503, "extender cluster state is not ready: " + source.notReadyReason());
    }
    return explained(service.explain(profile, namespace, name), request);
  }

  private static Reply explained(Explanation e, HttpServletRequest request) {
    return ExplainRequests.wantsText(request) ? new Reply(200, null, ExplanationReport.render(e)) : ok(e);
  }

  private static String sendText(String verb, Reply reply, HttpServletResponse response, String outcome) {
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

  private static Reply ok(Object body) {
    return new Reply(200, body, null);
  }

  private static Reply error(int status, String message) {
    return new Reply(status, new ExtenderBindingResult(message), null);
  }
}
