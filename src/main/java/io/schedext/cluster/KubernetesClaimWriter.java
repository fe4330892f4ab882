package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.ResourceClaimWriter;
import java.time.Duration;

/**
 * Writes ResourceClaims through the API server as upstream's DynamicResources does with client-go:
 * plain updates (PUT with the claim's resource version, so a stale claim is refused with 409
 * Conflict, which the plugin retries after a fresh read) of the claim and of its status, and a
 * strategic merge patch of the status that removes one reservation. Each request is bounded by a
 * timeout and not retried here. Thread-safe.
 */
final class KubernetesClaimWriter implements ResourceClaimWriter {

  private final KubernetesClient client;

  /** A writer over {@code client} giving up after {@code timeout} per request. */
  KubernetesClaimWriter(KubernetesClient client, Duration timeout) {
    this.client = KubernetesClients.bounded(client, timeout);
  }

  private MixedOperation<ResourceClaim, ResourceClaimList, Resource<ResourceClaim>> claims() {
    return client.dynamicResourceAllocation().v1().resourceClaims();
  }

  @Override
  public ResourceClaim get(String namespace, String name) {
    ResourceClaim c;
    try {
      c = claims().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw failure(e);
    }
    if (c == null) {
      throw new NotFound("resourceclaims.resource.k8s.io \"" + name + "\" not found", null);
    }
    return c;
  }

  @Override
  public ResourceClaim update(ResourceClaim claim) {
    try {
      return claims().inNamespace(claim.getMetadata().getNamespace()).resource(claim).update();
    } catch (KubernetesClientException e) {
      throw failure(e);
    }
  }

  @Override
  public ResourceClaim updateStatus(ResourceClaim claim) {
    try {
      return claims()
          .inNamespace(claim.getMetadata().getNamespace())
          .resource(claim)
          .updateStatus();
    } catch (KubernetesClientException e) {
      throw failure(e);
    }
  }

  @Override
  public ResourceClaim removeReservation(ResourceClaim claim, String podUid) {
    String patch =
        "{\"metadata\": {\"uid\": \""
            + claim.getMetadata().getUid()
            + "\"}, \"status\": { \"reservedFor\": [ {\"$patch\": \"delete\", \"uid\": \""
            + podUid
            + "\"} ] }}";
    try {
      return claims()
          .inNamespace(claim.getMetadata().getNamespace())
          .withName(claim.getMetadata().getName())
          .subresource("status")
          .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    } catch (KubernetesClientException e) {
      throw failure(e);
    }
  }

  private static FrameworkException failure(KubernetesClientException e) {
    String message =
        e.getStatus() != null
                && e.getStatus().getMessage() != null
                && !e.getStatus().getMessage().isEmpty()
            ? e.getStatus().getMessage()
            : e.getMessage();
    return switch (e.getCode()) {
      case 409 -> new Conflict(message, e);
      case 404 -> new NotFound(message, e);
      default -> new FrameworkException(message, e);
    };
  }
}
