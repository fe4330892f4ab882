package io.schedext.extender;

import io.schedext.extender.wire.ExtenderBindingResult;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Answers request mistakes Spring catches before the controller (a GET on a verb) in the protocol's error form. */
@RestControllerAdvice
class ErrorReplies {

  private final WireCodec codec;

  ErrorReplies(WireCodec codec) {
    this.codec = codec;
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<byte[]> methodNotAllowed(HttpRequestMethodNotSupportedException e) {
    return ResponseEntity.status(405).contentType(MediaType.APPLICATION_JSON)
        .body(codec.encode(new ExtenderBindingResult("method " + e.getMethod() + " is not allowed: use POST")));
  }
}
