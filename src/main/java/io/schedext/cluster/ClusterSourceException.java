package io.schedext.cluster;

/**
 * The cluster state cannot be loaded or synced; the message names the file or resource and the
 * object.
 */
public class ClusterSourceException extends RuntimeException {

  /** Creates the exception. */
  public ClusterSourceException(String message) {
    super(message);
  }

  /** Creates the exception with a cause. */
  public ClusterSourceException(String message, Throwable cause) {
    super(message, cause);
  }
}
