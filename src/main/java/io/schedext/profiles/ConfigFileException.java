package io.schedext.profiles;

/**
 * A scheduler configuration or Policy file the extender cannot use. The message names the file, the
 * field path (as kube-scheduler writes it: {@code profiles[0].plugins.filter.enabled[1].name}) and,
 * where there is a choice, the allowed values. Thrown at start-up only, so it stops the service.
 */
public class ConfigFileException extends RuntimeException {

  /** Creates the exception with a message a user can act on. */
  public ConfigFileException(String message) {
    super(message);
  }

  /** Creates the exception with a message and its cause. */
  public ConfigFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
