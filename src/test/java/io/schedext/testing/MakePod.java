package io.schedext.testing;

/** Entry point for one-line test pods. */
public final class MakePod {

  private MakePod() {}

  /** A new pod in namespace "default" with no containers. */
  public static PodWrapper pod() {
    return new PodWrapper();
  }
}
