package io.schedext.framework;

/**
 * A bind whose outcome nobody knows: the request may have reached the API server (a timeout, a
 * connection lost after it was sent), so the pod may be bound or not. The caller keeps the pod
 * assumed on the node instead of forgetting it, until the watch shows where it went or the assumed
 * pod expires.
 */
public class BindingOutcomeUnknownException extends FrameworkException {

  /** Creates the exception with a message naming the pod, the node and what happened. */
  public BindingOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }

  /** True when {@code t} or one of its causes is a {@link BindingOutcomeUnknownException}. */
  public static boolean in(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof BindingOutcomeUnknownException) {
        return true;
      }
    }
    return false;
  }
}
