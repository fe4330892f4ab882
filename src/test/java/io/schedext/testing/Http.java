package io.schedext.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A tiny real-HTTP client for tests against the running service. */
public final class Http {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final HttpClient client = HttpClient.newHttpClient();
  private final String base;

  /**
   * A reply.
   *
   * @param status the HTTP status
   * @param body the raw body
   * @param headers the response headers
   */
  public record Reply(int status, String body, java.net.http.HttpHeaders headers) {

    /** The first value of header {@code name} (case-insensitive), or null. */
    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    /** The body parsed as JSON. */
    public JsonNode json() {
      try {
        return MAPPER.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + body, e);
      }
    }
  }

  /** A client for {@code http://127.0.0.1:<port>}. */
  public Http(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** POSTs {@code body} as JSON to {@code path}. */
  public Reply post(String path, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  /** POSTs raw bytes to {@code path}. */
  public Reply post(String path, byte[] body) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  /** GETs {@code path}. */
  public Reply get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
  }

  /** GETs {@code path} with an {@code Accept} header. */
  public Reply get(String path, String accept) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept).GET().build());
  }

  /**
   * POSTs {@code body} to {@code path} with the given {@code Content-Type} and {@code Accept}
   * headers.
   */
  public Reply post(String path, String body, String contentType, String accept) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", contentType)
            .header("Accept", accept)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  private Reply send(HttpRequest req) {
    try {
      HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
      return new Reply(r.statusCode(), r.body(), r.headers());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * An object rendered as JSON with the fabric8-aware mapper, for building request bodies.
   *
   * @param value the object
   */
  public record Json(Object value) {
    @Override
    public String toString() {
      try {
        return MAPPER.writeValueAsString(value);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Reads a test resource as text. */
  public static String resource(String path) {
    try (var in = Http.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + path);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
