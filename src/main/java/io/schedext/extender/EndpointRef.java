package io.schedext.extender;

/**
 * The endpoint a servlet filter of {@link ExtenderWiring} hands its requests to: the extender's own
 * for its paths, never changed; the current instance's for the warm-up's ({@link WarmUp.Instance}).
 * One class for both, so that the filter's call to it meets one class whoever calls: code compiled
 * on the warm-up's calls alone would otherwise be thrown away at the first live one.
 */
final class EndpointRef {

  private volatile ExtenderEndpoint endpoint;

  /** A reference to {@code endpoint} (null: none yet). */
  EndpointRef(ExtenderEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** The endpoint requests go to now, or null when there is none yet. */
  ExtenderEndpoint get() {
    return endpoint;
  }

  /** Has requests go to {@code endpoint} from now on. */
  void set(ExtenderEndpoint endpoint) {
    this.endpoint = endpoint;
  }
}
