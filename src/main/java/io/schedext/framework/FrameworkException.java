package io.schedext.framework;

/**
 * The one unchecked exception of the runtime: an internal fault (missing cycle state, invalid
 * plugin arguments, an unknown plugin). The framework turns one thrown by a plugin into an {@link
 * Code#ERROR} status.
 */
public class FrameworkException extends RuntimeException {

  /** Creates the exception with a message a user can act on. */
  public FrameworkException(String message) {
    super(message);
  }

  /** Creates the exception with a message and its cause. */
  public FrameworkException(String message, Throwable cause) {
    super(message, cause);
  }
}
