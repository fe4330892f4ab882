package io.schedext.extender;

import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP face of the extender: {@code POST /scheduler/{verb}} for the default profile and
 * {@code POST /profiles/{profile}/{verb}} for a named one, verbs filter, prioritize, preempt, bind and explain. Decodes
 * with the fabric8-aware {@link WireCodec}, delegates to {@link ExtenderService}, and answers every client mistake
 * with a 4xx whose JSON body has the {@code Error} field filled.
 */
@RestController
class ExtenderController {

  private static final Logger log = LoggerFactory.getLogger(ExtenderController.class);

  private final ExtenderService service;
  private final WireCodec codec;
  private final ClusterSource source;
  private final ExtenderMetrics metrics;

  ExtenderController(ExtenderService service, WireCodec codec, ClusterSource source, ExtenderMetrics metrics) {
    this.service = service;
    this.codec = codec;
    this.source = source;
    this.metrics = metrics;
  }

  @PostMapping("/scheduler/{verb}")
  ResponseEntity<byte[]> defaultProfile(@PathVariable String verb, HttpServletRequest request) {
    return handle(null, verb, request);
  }

  @PostMapping("/profiles/{profile}/{verb}")
  ResponseEntity<byte[]> namedProfile(
      @PathVariable String profile, @PathVariable String verb, HttpServletRequest request) {
    return handle(profile, verb, request);
  }

  private ResponseEntity<byte[]> handle(String profile, String verb, HttpServletRequest request) {
    long start = System.nanoTime();
    String outcome = "ok";
    try {
      ResponseEntity<byte[]> r = dispatch(profile, verb, request);
      if (r.getStatusCode().value() != 200) {
        outcome = "unavailable";
      }
      return r;
    } catch (BadRequestException e) {
      outcome = e.httpStatus() == 404 ? "not_found" : "bad_request";
      return error(e.httpStatus(), e.getMessage());
    } catch (IOException e) {
      outcome = "bad_request";
      return error(400, "cannot read request body: " + e.getMessage());
    } catch (RuntimeException e) {
      outcome = "error";
      log.error("{} failed", verb, e);
      return error(500, "internal error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    } finally {
      metrics.request(verb, outcome, System.nanoTime() - start);
    }
  }

  private ResponseEntity<byte[]> dispatch(String profile, String verb, HttpServletRequest request)
      throws IOException {
    switch (verb) {
      case "filter" -> {
        ExtenderArgs args = codec.decode(request.getInputStream(), ExtenderArgs.class, service.nodeNames());
        service.framework(profile);
        if (!source.isReady()) {
          return ok(new ExtenderFilterResult(null, null, Map.of(), Map.of(),
              "extender cluster state is not ready: " + source.notReadyReason()));
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
      case "bind" -> {
        ExtenderBindingArgs args = codec.decode(request.getInputStream(), ExtenderBindingArgs.class);
        service.framework(profile);
        if (!source.isReady()) {
          return ok(new ExtenderBindingResult("extender cluster state is not ready: " + source.notReadyReason()));
        }
        return ok(service.bind(profile, args));
      }
      case "explain" -> {
        ExtenderArgs args = codec.decode(request.getInputStream(), ExtenderArgs.class, service.nodeNames());
        return ok(service.explain(profile, args));
      }
      default -> throw new BadRequestException(404,
          "unknown verb \"" + verb + "\"; verbs: filter, prioritize, preempt, bind, explain");
    }
  }

  private ResponseEntity<byte[]> ok(Object body) {
    return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(codec.encode(body));
  }

  private ResponseEntity<byte[]> error(int status, String message) {
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
        .body(codec.encode(new ExtenderBindingResult(message)));
  }
}
