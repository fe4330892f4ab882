package io.schedext.framework;

import java.util.List;

/**
 * The pods currently held at Permit, by UID, as plugins and debug views see them. Implementations
 * are thread-safe.
 */
public interface WaitingPods {

  /** The waiting pod with {@code uid}, or null. */
  WaitingPod get(String uid);

  /** Every waiting pod. */
  List<WaitingPod> list();
}
