package io.schedext.extender;

import io.schedext.cache.EventGate;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.util.UriUtils;

/**
 * The HTTP face of the extender: {@code POST /scheduler/{verb}} for the default profile and {@code
 * POST /profiles/{profile}/{verb}} for a named one, verbs filter, prioritize, preempt, bind and
 * explain, and {@code GET .../explain/{namespace}/{name}} to explain a pod the extender knows
 * (JSON, or text for people). Every verb is served the same way from its definition in {@link
 * Verbs}: the profile is resolved once (an unknown one is a 404), the call's snapshot is taken once
 * ({@link Call}), the request decoded against it, readiness checked, and the verb's handler
 * answers. Every client mistake is a 4xx whose JSON body has the {@code Error} field filled.
 *
 * <p>A servlet that the first filter of the chain for {@code /scheduler/*} and {@code /profiles/*}
 * hands every such request to ({@link ExtenderWiring}), rather than controller methods behind
 * Spring MVC's dispatcher: kube-scheduler calls filter and prioritize for every pod it schedules,
 * and the dispatcher's handler lookup, argument resolution and return-value handling, and the
 * filters Spring Boot puts before every servlet, were a measurable share of each call's CPU, and of
 * the code the JIT compiles before the extender runs at speed (docs/performance.md). It is not
 * registered with the container as a servlet: the filter answers the request and never passes it
 * on, so no mapping would ever reach it. Everything else the service serves (the web page, the
 * debug views, Actuator) stays with Spring MVC.
 *
 * <p>Separate verbs ({@link SeparateVerbs#endpoint}) are served by other instances, under a path
 * prefix of their own, with their own verbs, frameworks, snapshots and metrics: the same code from
 * the HTTP server's first byte to the reply's last, on state no caller sees.
 */
final class ExtenderEndpoint extends HttpServlet {

  private static final long serialVersionUID = 1L;

  private static final Logger log = LoggerFactory.getLogger(ExtenderEndpoint.class);

  /** The path prefix of the default profile's verbs, {@code /scheduler/{verb}}. */
  static final String DEFAULT_PROFILE_PREFIX = "/scheduler";

  /** The path prefix of a named profile's verbs, {@code /profiles/{profile}/{verb}}. */
  static final String NAMED_PROFILE_PREFIX = "/profiles";

  /** The URL patterns of every path the endpoint serves. */
  static final List<String> URL_PATTERNS =
      List.of(DEFAULT_PROFILE_PREFIX + "/*", NAMED_PROFILE_PREFIX + "/*");

  /**
   * The verb label of calls to no verb (an unknown verb or path): the label stays one of a known
   * few whatever paths callers try.
   */
  static final String UNKNOWN = "unknown";

  /**
   * An asynchronous verb's reply waits for the work itself (a bind, whose every API call is
   * bounded), never for a servlet timeout.
   */
  private static final long NO_ASYNC_TIMEOUT = 0L;

  private final transient Verbs verbs;
  private final transient ExplainService explain;
  private final transient Frameworks frameworks;
  private final transient Supplier<Snapshot> snapshots;
  private final transient SnapshotNames nameIndexes = new SnapshotNames();
  private final transient WireCodec codec;
  private final transient ClusterSource source;
  private final transient ExtenderMetrics metrics;
  private final transient EventGate gate;
  private final transient BindWorkers bindWorkers;
  private final String pathPrefix;

  /**
   * An endpoint serving {@code verbs} on {@code frameworks}, each call on a snapshot from {@code
   * snapshots}, for request paths that start with {@code pathPrefix} (after the context path; empty
   * for the extender's own paths).
   */
  ExtenderEndpoint(
      Verbs verbs,
      ExplainService explain,
      Frameworks frameworks,
      Supplier<Snapshot> snapshots,
      WireCodec codec,
      ClusterSource source,
      ExtenderMetrics metrics,
      EventGate gate,
      BindWorkers bindWorkers,
      String pathPrefix) {
    this.verbs = verbs;
    this.explain = explain;
    this.frameworks = frameworks;
    this.snapshots = snapshots;
    this.codec = codec;
    this.source = source;
    this.metrics = metrics;
    this.gate = gate;
    this.bindWorkers = bindWorkers;
    this.pathPrefix = pathPrefix;
  }

  /** Routes every request under the two prefixes, whatever its method. */
  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) {
    Route route =
        Route.of(
            request
                .getRequestURI()
                .substring(request.getContextPath().length() + pathPrefix.length()));
    if (route == null) {
      answer(
          UNKNOWN,
          () -> {
            throw new BadRequestException(404, "Not Found (" + request.getRequestURI() + ")");
          },
          response);
      return;
    }
    String method = request.getMethod();
    String allowed = route.explainedPod() ? "GET" : "POST";
    if (!method.equals(allowed)) {
      response.setHeader("Allow", allowed);
      answer(
          verbs.get(route.verb()) != null ? route.verb() : UNKNOWN,
          () -> {
            throw new BadRequestException(
                405, "method " + method + " is not allowed: use " + allowed);
          },
          response);
      return;
    }
    if (route.explainedPod()) {
      answer("explain", () -> explainedByName(route, request), response);
    } else {
      serve(route.profile(), route.verb(), request, response);
    }
  }

  /**
   * A request's place among the routes: a verb of a profile (null: the default one), or the pod
   * {@code namespace/name} to explain.
   *
   * @param profile the profile named in the path, or null for the default profile
   * @param verb the verb's path segment ({@code explain} for a pod explained by name)
   * @param namespace the explained pod's namespace, or null when the route is a verb's
   * @param name the explained pod's name, or null when the route is a verb's
   */
  record Route(String profile, String verb, String namespace, String name) {

    /**
     * The route of {@code path} (the request's path within the application, not decoded), or null
     * when it is none.
     */
    static Route of(String path) {
      String[] s;
      String profile;
      if (path.startsWith(DEFAULT_PROFILE_PREFIX + "/")) {
        s = path.substring(DEFAULT_PROFILE_PREFIX.length() + 1).split("/", -1);
        profile = null;
      } else if (path.startsWith(NAMED_PROFILE_PREFIX + "/")) {
        String[] all = path.substring(NAMED_PROFILE_PREFIX.length() + 1).split("/", -1);
        if (all.length < 2 || all[0].isEmpty()) {
          return null;
        }
        profile = decode(all[0]);
        s = Arrays.copyOfRange(all, 1, all.length);
      } else {
        return null;
      }
      for (String segment : s) {
        if (segment.isEmpty()) {
          return null;
        }
      }
      if (s.length == 1) {
        return new Route(profile, decode(s[0]), null, null);
      }
      if (s.length == 3 && s[0].equals("explain")) {
        return new Route(profile, "explain", decode(s[1]), decode(s[2]));
      }
      return null;
    }

    /**
     * True when the route explains a known pod by name ({@code GET}), not a verb ({@code POST}).
     */
    boolean explainedPod() {
      return name != null;
    }

    private static String decode(String segment) {
      return segment.indexOf('%') < 0 ? segment : UriUtils.decode(segment, StandardCharsets.UTF_8);
    }
  }

  /**
   * Answers one call to {@code name}. The reply is encoded into a reused buffer first and sent with
   * its {@code Content-Length} in one write (a prioritize reply for 5,000 nodes is ~150 KB;
   * streamed, it went out in many small chunked writes), and a reply that cannot be encoded becomes
   * a 500 with the reason instead of a truncated body.
   */
  private void serve(
      String profile, String name, HttpServletRequest request, HttpServletResponse response) {
    Verb<?> verb = verbs.get(name);
    if (verb == null) {
      answer(
          UNKNOWN,
          () -> {
            throw new BadRequestException(
                404, "unknown verb \"" + name + "\"; verbs: " + verbs.names());
          },
          response);
      return;
    }
    if (verb.async()) {
      serveAsync(verb, profile, request, response);
      return;
    }
    // The calls kube-scheduler waits on for each pod go before watch events (see EventGate).
    if (verb.gated()) {
      gate.requestStarted();
    }
    try {
      long start = System.nanoTime();
      Prepared<?> prepared = prepare(verb, profile, request);
      send(verb.name(), prepared.answerOnThisThread(), response, start);
    } finally {
      if (verb.gated()) {
        gate.requestFinished();
      }
    }
  }

  /**
   * A request resolved, decoded and checked on the HTTP worker: the verb's handler still to run on
   * its call and arguments, or the answer it already has (a client mistake, a not-ready reply).
   */
  private record Prepared<A>(Verb<A> verb, Call call, A args, Answer answer) {

    /** The answer, running the handler here when there is none yet. */
    Answer answerOnThisThread() {
      return answer != null
          ? answer
          : attempt(verb.name(), () -> verb.handler().handle(call, args));
    }
  }

  /** Resolves the call, decodes the request and checks readiness: the steps every verb shares. */
  private <A> Prepared<A> prepare(Verb<A> verb, String profile, HttpServletRequest request) {
    try {
      Call call = call(profile);
      A args = verb.decoder().decode(request, call);
      Reply notReady = verb.unlessReady(args, source);
      // Filter and bind answer 200 with an Error while not ready, as kube-scheduler reads them;
      // counted as what they are, so that they show among the not-ready answers.
      return new Prepared<>(
          verb, call, args, notReady == null ? null : new Answer(notReady, "unavailable"));
    } catch (IOException | RuntimeException e) {
      return new Prepared<>(verb, null, null, failure(verb.name(), e));
    }
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
    return new Call(fw, snapshots, nameIndexes);
  }

  /** Runs {@code work} and sends its reply, counting the request under {@code verb}. */
  private void answer(String verb, ReplyWork work, HttpServletResponse response) {
    long start = System.nanoTime();
    send(verb, attempt(verb, work), response, start);
  }

  /**
   * Sends {@code answer} as the whole body, with its length, and counts the request started at
   * {@code start}.
   */
  private void send(String verb, Answer answer, HttpServletResponse response, long start) {
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
  private record Answer(Reply reply, String outcome) {

    /** A reply that the work produced (null: there is more to do), counted as ok or unavailable. */
    static Answer of(Reply reply) {
      return new Answer(reply, reply == null || reply.status() == 200 ? "ok" : "unavailable");
    }
  }

  /** Work that produces a reply, or null to go on; may throw what {@link #attempt} maps. */
  private interface ReplyWork {
    Reply get() throws IOException;
  }

  /**
   * Runs {@code work}; its reply (null: there is more to do) or its failure as {@link #failure}
   * maps it.
   */
  private static Answer attempt(String verb, ReplyWork work) {
    try {
      return Answer.of(work.get());
    } catch (IOException | RuntimeException e) {
      return failure(verb, e);
    }
  }

  /**
   * The one mapping of failures to replies: client mistakes are 4xx, anything else a logged 500.
   */
  private static Answer failure(String verb, Exception e) {
    if (e instanceof BadRequestException b) {
      return new Answer(
          Reply.error(b.httpStatus(), b.getMessage()),
          b.httpStatus() == 404 ? "not_found" : "bad_request");
    }
    if (e instanceof IOException) {
      return new Answer(
          Reply.error(400, "cannot read request body: " + e.getMessage()), "bad_request");
    }
    log.error("{} failed", verb, e);
    return new Answer(
        Reply.error(
            500,
            "internal error: "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())),
        "error");
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
   * Serves a verb that runs on the bind workers (bind): the call is resolved, the body read and
   * readiness checked on the HTTP worker, which is then released (Servlet async) while a bind
   * worker runs the handler, so binds stuck on the API server hold no HTTP worker. The reply waits
   * for the handler however long it takes (each of a bind's API calls is bounded): an answer before
   * the bind ended would have to guess its outcome. With every bind worker busy the call is refused
   * at once.
   */
  private <A> void serveAsync(
      Verb<A> verb, String profile, HttpServletRequest request, HttpServletResponse response) {
    long start = System.nanoTime();
    Prepared<A> prepared = prepare(verb, profile, request);
    AsyncContext async = request.startAsync(request, response);
    async.setTimeout(NO_ASYNC_TIMEOUT);
    if (prepared.answer() != null) {
      sendAndComplete(verb.name(), prepared.answer(), async, response, start);
      return;
    }
    try {
      bindWorkers
          .submit(prepared::answerOnThisThread)
          .whenComplete(
              (answer, t) ->
                  sendAndComplete(
                      verb.name(),
                      answer != null ? answer : failed(verb.name(), t),
                      async,
                      response,
                      start));
    } catch (RejectedExecutionException e) {
      metrics.bind("refused");
      sendAndComplete(
          verb.name(),
          new Answer(
              Reply.ok(
                  new ExtenderBindingResult(
                      "bind refused: all "
                          + bindWorkers.workers()
                          + " bind workers (extender.bind.workers) are busy; nothing was done")),
              "refused"),
          async,
          response,
          start);
    }
  }

  /** Sends an asynchronous call's answer and ends the call. */
  private void sendAndComplete(
      String verb, Answer answer, AsyncContext async, HttpServletResponse response, long start) {
    try {
      send(verb, answer, response, start);
    } finally {
      async.complete();
    }
  }

  /**
   * Explains a known pod; while the state is incomplete a missing pod proves nothing, so that is a
   * 503.
   */
  private Reply explainedByName(Route route, HttpServletRequest request) {
    Call call = call(route.profile());
    if (!source.isReady()) {
      return Reply.error(503, "extender cluster state is not ready: " + source.notReadyReason());
    }
    return ExplainService.reply(
        explain.explain(call, route.namespace(), route.name()), ExplainRequests.wantsText(request));
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
