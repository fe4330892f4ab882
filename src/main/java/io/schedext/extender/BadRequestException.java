package io.schedext.extender;

/**
 * A request the client got wrong; answered with {@link #httpStatus()} and the message in the {@code
 * Error} field.
 */
public class BadRequestException extends RuntimeException {

  private final int httpStatus;

  /** A 400 with this message. */
  public BadRequestException(String message) {
    this(400, message);
  }

  /** A client error with the given HTTP status. */
  public BadRequestException(int httpStatus, String message) {
    super(message, null, false, false);
    this.httpStatus = httpStatus;
  }

  /** The HTTP status to answer with. */
  public int httpStatus() {
    return httpStatus;
  }
}
