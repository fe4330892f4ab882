package io.schedext.extender;

import io.schedext.extender.wire.ExtenderBindingResult;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers request mistakes in the protocol's error form: those Spring catches before a controller
 * (a method a view does not take) and those the read-only views find (a bad query parameter). The
 * verbs' own are {@link ExtenderEndpoint}'s.
 */
@RestControllerAdvice
class ErrorReplies {

  private final WireCodec codec;

  ErrorReplies(WireCodec codec) {
    this.codec = codec;
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<byte[]> methodNotAllowed(HttpRequestMethodNotSupportedException e) {
    String allowed =
        e.getSupportedMethods() == null
            ? ""
            : ": use " + String.join(" or ", e.getSupportedMethods());
    return codec.response(
        405, new ExtenderBindingResult("method " + e.getMethod() + " is not allowed" + allowed));
  }

  @ExceptionHandler(BadRequestException.class)
  ResponseEntity<byte[]> badRequest(BadRequestException e) {
    return codec.response(e.httpStatus(), new ExtenderBindingResult(e.getMessage()));
  }
}
