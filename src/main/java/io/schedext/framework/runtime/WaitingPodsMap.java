package io.schedext.framework.runtime;

import io.schedext.framework.WaitingPod;
import io.schedext.framework.WaitingPods;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/** The runtime's {@link WaitingPods}: the pods currently held at Permit, by UID. Thread-safe. */
public final class WaitingPodsMap implements WaitingPods {

  private final ConcurrentHashMap<String, HeldPod> pods = new ConcurrentHashMap<>();

  void add(HeldPod wp) {
    pods.put(wp.pod().uid(), wp);
  }

  void remove(String uid) {
    pods.remove(uid);
  }

  /** The held pod with {@code uid}, as the runtime sees it, or null. */
  HeldPod held(String uid) {
    return pods.get(uid);
  }

  @Override
  public WaitingPod get(String uid) {
    return pods.get(uid);
  }

  @Override
  public List<WaitingPod> list() {
    return List.copyOf(pods.values());
  }
}
