package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.ResourceClaimWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * An API server for ResourceClaims over an object store that plays the informer too: every write
 * lands in the store at once, with a new resource version; a write from a stale claim is a
 * conflict. {@link #change} makes a write of "someone else" (a driver, kube-scheduler), {@link
 * #failNextStatusUpdate} makes the next status update fail. Records the calls it was given.
 */
final class FakeClaimApi implements ResourceClaimWriter {

  private final ObjectStore store;
  private final AtomicLong versions = new AtomicLong(100);
  final List<String> calls = new ArrayList<>();
  private String failNextStatusUpdate;
  private boolean informerLags;
  private final List<ResourceClaim> undelivered = new ArrayList<>();

  FakeClaimApi(ObjectStore store) {
    this.store = store;
  }

  /** Stores {@code claim} as the API server would on create: a resource version. */
  ResourceClaim create(ResourceClaim claim) {
    ResourceClaim c = new ResourceClaimBuilder(claim).build();
    if (c.getMetadata().getNamespace() == null) {
      c.getMetadata().setNamespace("default");
    }
    c.getMetadata().setResourceVersion(Long.toString(versions.incrementAndGet()));
    latest.put(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c);
    store.put(c);
    return c;
  }

  /** Someone else changes claim {@code name} of {@code namespace}. */
  void change(String namespace, String name, UnaryOperator<ResourceClaim> edit) {
    ResourceClaim c = edit.apply(new ResourceClaimBuilder(get(namespace, name)).build());
    write(c);
  }

  /** From now on writes reach the store (the informer) only on {@link #deliver()}. */
  void informerLags() {
    informerLags = true;
  }

  /** Hands the writes made since the last call to the store, as the informer's events. */
  synchronized void deliver() {
    undelivered.forEach(store::put);
    undelivered.clear();
  }

  void failNextStatusUpdate(String message) {
    failNextStatusUpdate = message;
  }

  private final java.util.Map<String, ResourceClaim> latest = new java.util.HashMap<>();

  @Override
  public synchronized ResourceClaim get(String namespace, String name) {
    calls.add("get " + name);
    ResourceClaim c =
        latest.getOrDefault(namespace + "/" + name, store.resourceClaim(namespace, name));
    if (c == null) {
      throw new NotFound("resourceclaims.resource.k8s.io \"" + name + "\" not found", null);
    }
    return c;
  }

  @Override
  public synchronized ResourceClaim update(ResourceClaim claim) {
    calls.add("update " + claim.getMetadata().getName());
    ResourceClaim stored = checked(claim);
    return write(new ResourceClaimBuilder(claim).withStatus(stored.getStatus()).build());
  }

  @Override
  public synchronized ResourceClaim updateStatus(ResourceClaim claim) {
    calls.add("updateStatus " + claim.getMetadata().getName());
    if (failNextStatusUpdate != null) {
      String m = failNextStatusUpdate;
      failNextStatusUpdate = null;
      throw new FrameworkException(m);
    }
    ResourceClaim stored = checked(claim);
    return write(new ResourceClaimBuilder(stored).withStatus(claim.getStatus()).build());
  }

  @Override
  public synchronized ResourceClaim removeReservation(ResourceClaim claim, String podUid) {
    calls.add("removeReservation " + claim.getMetadata().getName());
    ResourceClaim c =
        new ResourceClaimBuilder(
                get(claim.getMetadata().getNamespace(), claim.getMetadata().getName()))
            .build();
    if (c.getStatus() != null && c.getStatus().getReservedFor() != null) {
      c.getStatus().getReservedFor().removeIf(r -> podUid.equals(r.getUid()));
    }
    return write(c);
  }

  private ResourceClaim checked(ResourceClaim claim) {
    ResourceClaim stored = get(claim.getMetadata().getNamespace(), claim.getMetadata().getName());
    if (!stored
        .getMetadata()
        .getResourceVersion()
        .equals(claim.getMetadata().getResourceVersion())) {
      throw new Conflict(
          "Operation cannot be fulfilled on resourceclaims.resource.k8s.io \""
              + claim.getMetadata().getName()
              + "\": the object has been modified; please apply your changes to the latest version"
              + " and try again",
          null);
    }
    return stored;
  }

  private ResourceClaim write(ResourceClaim c) {
    c.getMetadata().setResourceVersion(Long.toString(versions.incrementAndGet()));
    latest.put(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c);
    if (informerLags) {
      undelivered.add(c);
    } else {
      store.put(c);
    }
    return c;
  }
}
