package io.schedext.testing;

/** Entry point for one-line test nodes. */
public final class MakeNode {

  private MakeNode() {}

  /** A new empty node. */
  public static NodeWrapper node() {
    return new NodeWrapper();
  }
}
