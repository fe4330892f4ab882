package io.schedext.extender;

import io.schedext.extender.wire.ExtenderBindingResult;

/**
 * What one call answers: an HTTP status and the object its JSON body encodes, or the text of a
 * {@code text/plain} body. Every error reply carries the protocol's {@code Error} field.
 *
 * @param status the HTTP status
 * @param body the object to encode as JSON (when text is null)
 * @param text the plain-text body, or null
 */
record Reply(int status, Object body, String text) {

  /** A 200 whose JSON body encodes {@code body}. */
  static Reply ok(Object body) {
    return new Reply(200, body, null);
  }

  /** A 200 whose body is {@code text} as {@code text/plain}. */
  static Reply text(String text) {
    return new Reply(200, null, text);
  }

  /**
   * A reply with {@code status} whose JSON body has only the {@code Error} field, set to {@code
   * message}.
   */
  static Reply error(int status, String message) {
    return new Reply(status, new ExtenderBindingResult(message), null);
  }
}
