package io.schedext.testing.realcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A kube-scheduler extender on loopback that keeps every request body exactly as it arrived and
 * answers as a permissive extender would: filter lets every node through, in the field the request
 * used; prioritize gives every node 0; preempt agrees to every proposed victim, by UID; bind posts
 * the Binding to the API server. It serves one extender per {@code nodeCacheCapable} mode, under
 * {@code /ncc-true/} and {@code /ncc-false/}, so one kube-scheduler configured with both sends the
 * bodies of both modes for the same scheduling cycle.
 */
public final class RecordingExtender implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One request as it arrived.
   *
   * @param seq its place among every request received
   * @param nodeCacheCapable the mode of the extender it was sent to
   * @param verb filter, prioritize, preempt or bind
   * @param body the body, byte for byte
   * @param headers the request headers, names lower-cased
   */
  public record Call(
      int seq, boolean nodeCacheCapable, String verb, byte[] body, Map<String, String> headers) {

    /** The body parsed. */
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The name of the pod the call is about. */
    public String podName() {
      JsonNode j = json();
      return "bind".equals(verb)
          ? j.path("PodName").asText()
          : j.path("Pod").path("metadata").path("name").asText();
    }

    /** The names of the nodes a filter or prioritize call was sent, in order. */
    public List<String> nodeNames() {
      JsonNode j = json();
      List<String> out = new ArrayList<>();
      if (j.path("NodeNames").isArray()) {
        j.get("NodeNames").forEach(n -> out.add(n.asText()));
      } else {
        j.path("Nodes")
            .path("items")
            .forEach(n -> out.add(n.path("metadata").path("name").asText()));
      }
      return out;
    }

    @Override
    public String toString() {
      return "#"
          + seq
          + " "
          + verb
          + (nodeCacheCapable ? " ncc-true " : " ncc-false ")
          + podName()
          + ("filter".equals(verb) || "prioritize".equals(verb) ? " " + nodeNames() : "");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final KubernetesClient client;
  private final Consumer<Call> beforeReply;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final List<Call> calls = new ArrayList<>();
  private final AtomicInteger sequence = new AtomicInteger();

  /**
   * Starts the extender on a free loopback port. {@code beforeReply} sees each call before it is
   * answered (kube-scheduler waits meanwhile), so it can look at the cluster as kube-scheduler saw
   * it when it sent the call.
   */
  public RecordingExtender(KubernetesClient client, Consumer<Call> beforeReply) {
    this.client = client;
    this.beforeReply = beforeReply;
    try {
      server =
          HttpServer.create(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), /*backlog*/ 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/ncc-true/", ex -> handle(ex, true));
    server.createContext("/ncc-false/", ex -> handle(ex, false));
    server.setExecutor(executor);
    server.start();
  }

  /** The URL prefix of the extender of one mode, for kube-scheduler's {@code urlPrefix}. */
  public String urlPrefix(boolean nodeCacheCapable) {
    return "http://127.0.0.1:"
        + server.getAddress().getPort()
        + (nodeCacheCapable ? "/ncc-true" : "/ncc-false");
  }

  /** Every call so far, in the order they arrived. */
  public List<Call> calls() {
    lock.lock();
    try {
      return List.copyOf(calls);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The first call that matches {@code which}, waiting up to {@code timeout} for it.
   *
   * @throws IllegalStateException when none arrives in time
   */
  public Call await(String what, Predicate<Call> which, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (true) {
        for (Call c : calls) {
          if (which.test(c)) {
            return c;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException(
              "no " + what + " within " + timeout + "; calls so far: " + calls);
        }
        arrived.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + what, e);
    } finally {
      lock.unlock();
    }
  }

  private void handle(HttpExchange ex, boolean nodeCacheCapable) throws IOException {
    try (ex) {
      byte[] body;
      try (InputStream in = ex.getRequestBody()) {
        body = in.readAllBytes();
      }
      String path = ex.getRequestURI().getPath();
      String verb = path.substring(path.lastIndexOf('/') + 1);
      Map<String, String> headers = new TreeMap<>();
      ex.getRequestHeaders()
          .forEach(
              (k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
      Call call = new Call(sequence.incrementAndGet(), nodeCacheCapable, verb, body, headers);
      byte[] reply;
      int status = 200;
      try {
        beforeReply.accept(call);
        reply = JSON.writeValueAsBytes(answer(call));
      } catch (RuntimeException e) {
        status = 500;
        reply = String.valueOf(e).getBytes(StandardCharsets.UTF_8);
      }
      lock.lock();
      try {
        calls.add(call);
        arrived.signalAll();
      } finally {
        lock.unlock();
      }
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(status, reply.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(reply);
      }
    }
  }

  private Object answer(Call call) {
    JsonNode j = call.json();
    switch (call.verb()) {
      case "filter" -> {
        ObjectNode r = JSON.createObjectNode();
        // The same field the request used: an answer in the other one leaves no feasible node.
        r.set("Nodes", j.path("Nodes").isObject() ? j.get("Nodes") : null);
        r.set("NodeNames", j.path("NodeNames").isArray() ? j.get("NodeNames") : null);
        r.putObject("FailedNodes");
        r.putObject("FailedAndUnresolvableNodes");
        r.put("Error", "");
        return r;
      }
      case "prioritize" -> {
        ArrayNode r = JSON.createArrayNode();
        call.nodeNames().forEach(n -> r.addObject().put("Host", n).put("Score", 0));
        return r;
      }
      case "preempt" -> {
        ObjectNode r = JSON.createObjectNode();
        ObjectNode out = r.putObject("NodeNameToMetaVictims");
        JsonNode meta = j.path("NodeNameToMetaVictims");
        JsonNode full = j.path("NodeNameToVictims");
        JsonNode proposed = meta.isObject() ? meta : full;
        proposed
            .fields()
            .forEachRemaining(
                e -> {
                  ObjectNode v = out.putObject(e.getKey());
                  ArrayNode pods = v.putArray("Pods");
                  e.getValue()
                      .path("Pods")
                      .forEach(
                          p ->
                              pods.addObject()
                                  .put(
                                      "UID",
                                      p.has("UID")
                                          ? p.get("UID").asText()
                                          : p.path("metadata").path("uid").asText()));
                  v.put("NumPDBViolations", e.getValue().path("NumPDBViolations").asLong());
                });
        return r;
      }
      case "bind" -> {
        ObjectNode r = JSON.createObjectNode();
        try {
          client
              .bindings()
              .inNamespace(j.path("PodNamespace").asText())
              .resource(
                  new BindingBuilder()
                      .withNewMetadata()
                      .withName(j.path("PodName").asText())
                      .withNamespace(j.path("PodNamespace").asText())
                      .withUid(j.path("PodUID").asText())
                      .endMetadata()
                      .withNewTarget()
                      .withKind("Node")
                      .withApiVersion("v1")
                      .withName(j.path("Node").asText())
                      .endTarget()
                      .build())
              .create();
          r.put("Error", "");
        } catch (RuntimeException e) {
          r.put("Error", String.valueOf(e.getMessage()));
        }
        return r;
      }
      default -> throw new IllegalArgumentException("unknown verb " + call.verb());
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
