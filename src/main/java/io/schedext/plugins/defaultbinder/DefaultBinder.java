package io.schedext.plugins.defaultbinder;

import io.schedext.framework.BindPlugin;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;

/** Binds the pod by writing a Binding through the cluster source's binder; never skips. */
public final class DefaultBinder implements BindPlugin {

  private final PodBinder binder;

  private DefaultBinder(PodBinder binder) {
    this.binder = binder;
  }

  @Override
  public String name() {
    return Names.DEFAULT_BINDER;
  }

  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    try {
      binder.bind(pod, nodeName);
      return Status.success();
    } catch (FrameworkException e) {
      return Status.error(e);
    }
  }

  /** The factory registered under {@link Names#DEFAULT_BINDER}. */
  public static DefaultBinder create(PluginArgs args, Handle handle) {
    return new DefaultBinder(handle.binder());
  }
}
