package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.schedext.framework.BindingOutcomeUnknownException;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import java.net.ConnectException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Binds pods through the API server: {@code POST /api/v1/namespaces/<ns>/pods/<name>/binding} with
 * the pod's UID as precondition, as upstream's DefaultBinder, sent once (never retried by the
 * client) and bounded by a timeout. A pod already bound to the same node is success; bound
 * elsewhere, gone, or re-created under another UID is an error that binds nothing. When no answer
 * came although the request may have reached the API server (a timeout, a connection lost after it
 * was sent) the outcome is unknown: {@link BindingOutcomeUnknownException}. Thread-safe.
 */
public final class KubernetesBinder implements PodBinder {

  private final KubernetesClient client;
  private final KubernetesClient lookups;
  private final Duration timeout;

  /**
   * A binder using {@code client}, giving up on a Binding after {@code timeout} and on the lookup
   * that explains a 409 after {@code lookupTimeout}.
   */
  public KubernetesBinder(KubernetesClient client, Duration timeout, Duration lookupTimeout) {
    this.client = KubernetesClients.bounded(client, timeout);
    this.lookups = KubernetesClients.bounded(client, lookupTimeout);
    this.timeout = timeout;
  }

  @Override
  public void bind(PodInfo pod, String nodeName) {
    String body =
        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"namespace\":"
            + quote(pod.namespace())
            + ",\"name\":"
            + quote(pod.name())
            + ",\"uid\":"
            + quote(pod.uid())
            + "},\"target\":{\"apiVersion\":\"v1\","
            + "\"kind\":\"Node\",\"name\":"
            + quote(nodeName)
            + "}}";
    String url =
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + "/api/v1/namespaces/"
            + encode(pod.namespace())
            + "/pods/"
            + encode(pod.name())
            + "/binding";
    HttpRequest req =
        client
            .getHttpClient()
            .newHttpRequestBuilder()
            .uri(url)
            .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .post("application/json", body)
            .build();
    HttpResponse<String> resp;
    CompletableFuture<HttpResponse<String>> call =
        client.getHttpClient().sendAsync(req, String.class);
    try {
      // The client's timeout ends the request too, but it restarts while bytes trickle in; this
      // wait does not.
      resp = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw unknown(pod, nodeName, "no answer within " + timeout, e);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw unknown(pod, nodeName, "interrupted while waiting for the answer", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ConnectException) {
        // The connection was never made, so the request never left: nothing was bound.
        throw new FrameworkException(
            "binding pod "
                + pod.key()
                + " to "
                + nodeName
                + " failed: the API server "
                + "cannot be reached ("
                + cause.getMessage()
                + "); nothing was bound",
            cause);
      }
      throw unknown(pod, nodeName, "no answer (" + describe(cause) + ")", cause);
    }
    int code = resp.code();
    if (code >= 200 && code < 300) {
      return;
    }
    if (code == 409) {
      Pod current = current(pod);
      if (current != null
          && pod.uid().equals(current.getMetadata().getUid())
          && nodeName.equals(current.getSpec().getNodeName())) {
        return;
      }
      if (current != null && !pod.uid().equals(current.getMetadata().getUid())) {
        throw new FrameworkException(
            "pod "
                + pod.key()
                + " was deleted and re-created (UID "
                + current.getMetadata().getUid()
                + ", not "
                + pod.uid()
                + "); nothing was bound");
      }
      if (current != null && current.getSpec().getNodeName() != null) {
        throw new FrameworkException(
            "pod " + pod.key() + " is already bound to node " + current.getSpec().getNodeName());
      }
    }
    if (code == 404) {
      throw new FrameworkException(
          "pod " + pod.key() + " not found by the API server; nothing was bound");
    }
    throw new FrameworkException(
        "binding pod "
            + pod.key()
            + " to "
            + nodeName
            + " failed: HTTP "
            + code
            + ": "
            + abbreviate(resp.body()));
  }

  private static BindingOutcomeUnknownException unknown(
      PodInfo pod, String nodeName, String what, Throwable cause) {
    return new BindingOutcomeUnknownException(
        "binding pod " + pod.key() + " to " + nodeName + ": " + what + "; the outcome is unknown",
        cause);
  }

  private static String describe(Throwable t) {
    return t.getMessage() == null
        ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  private Pod current(PodInfo pod) {
    try {
      return lookups.pods().inNamespace(pod.namespace()).withName(pod.name()).get();
    } catch (KubernetesClientException e) {
      return null;
    }
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String abbreviate(String s) {
    if (s == null) {
      return "";
    }
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
