package io.schedext.cache;

import io.schedext.framework.FrameworkException;

/**
 * A rejected cache operation (a pod transition the state machine does not allow, an unknown node).
 */
public class CacheException extends FrameworkException {

  /** Creates the exception. */
  public CacheException(String message) {
    super(message);
  }
}
