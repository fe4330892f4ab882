package io.schedext.extender;

import io.schedext.extender.wire.ExtenderBindingResult;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page, in the protocol's error form ({@code {"Error": "..."}}) instead of Spring Boot's:
 * the server answers through it when a request fails before or beneath the controller, above all a
 * body whose bytes stopped coming (Tomcat then answers 408 itself, discarding the controller's
 * reply).
 */
@RestController
class ErrorPage implements ErrorController {

  private final WireCodec codec;

  ErrorPage(WireCodec codec) {
    this.codec = codec;
  }

  @RequestMapping("/error")
  ResponseEntity<byte[]> error(HttpServletRequest request) {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer i ? i : 500;
    Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    String message =
        status == 408
            ? "request body not received in time (server.tomcat.connection-timeout between two reads)"
            : HttpStatus.resolve(status) == null
                ? "HTTP " + status
                : HttpStatus.resolve(status).getReasonPhrase();
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .body(
            codec.encode(
                new ExtenderBindingResult(message + (uri == null ? "" : " (" + uri + ")"))));
  }
}
