package io.schedext.plugins.volumebinding;

/**
 * Why an {@link AssumeCache} operation failed: the object is unknown, out of sync, or has a bad
 * resource version.
 */
public final class AssumeCacheException extends RuntimeException {

  private final boolean notFound;

  AssumeCacheException(String message, boolean notFound) {
    super(message);
    this.notFound = notFound;
  }

  /** True when the object is not in the cache. */
  public boolean isNotFound() {
    return notFound;
  }
}
