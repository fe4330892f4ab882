package io.schedext.cluster;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/**
 * An informer event handler that hands every call on to another one; a decorator overrides only the
 * calls it adds to, and fabric8's list notifications pass through unchanged.
 *
 * @param <T> the kind of the informer
 */
abstract class ForwardingHandler<T> implements ResourceEventHandler<T> {

  private final ResourceEventHandler<T> handler;

  /** A handler handing every call to {@code handler}. */
  ForwardingHandler(ResourceEventHandler<T> handler) {
    this.handler = handler;
  }

  @Override
  public void onAdd(T obj) {
    handler.onAdd(obj);
  }

  @Override
  public void onUpdate(T oldObj, T newObj) {
    handler.onUpdate(oldObj, newObj);
  }

  @Override
  public void onDelete(T obj, boolean deletedFinalStateUnknown) {
    handler.onDelete(obj, deletedFinalStateUnknown);
  }

  @Override
  public void onNothing() {
    handler.onNothing();
  }

  @Override
  public void onBeforeList(String resourceVersion) {
    handler.onBeforeList(resourceVersion);
  }

  @Override
  public void onList(String resourceVersion, boolean initialList) {
    handler.onList(resourceVersion, initialList);
  }
}
