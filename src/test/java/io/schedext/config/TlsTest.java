package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented TLS set-up, end to end: server certificate and key from PEM files through an SSL
 * bundle, client certificates required and checked against the CA of the same bundle.
 * kube-scheduler's side is played by an HTTP client holding the CA and, or not, a client
 * certificate.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TlsTest {

  static final TestCertificates CERTS = TestCertificates.generate();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    registry.add("server.ssl.bundle", () -> "extender");
    registry.add("server.ssl.client-auth", () -> "need");
    registry.add(
        "spring.ssl.bundle.pem.extender.keystore.certificate", () -> CERTS.location("tls.crt"));
    registry.add(
        "spring.ssl.bundle.pem.extender.keystore.private-key", () -> CERTS.location("tls.key"));
    registry.add(
        "spring.ssl.bundle.pem.extender.truststore.certificate", () -> CERTS.location("ca.crt"));
  }

  @Value("${local.server.port}")
  int port;

  @Autowired WebServerApplicationContext context;

  private HttpResponse<String> filter(boolean withClientCert)
      throws IOException, InterruptedException {
    HttpClient client =
        HttpClient.newBuilder()
            .sslContext(CERTS.clientContext(withClientCert))
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/scheduler/filter"))
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    Files.readString(Path.of("docs/examples/filter.json"))))
            .build();
    return client.send(req, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aClientWithACertificateFromTheTrustedCaGetsAFilterAnswer() throws Exception {
    HttpResponse<String> r = filter(true);
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode j = new ObjectMapper().readTree(r.body());
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(j.get("NodeNames").size()).isPositive();
  }

  @Test
  void aClientWithoutACertificateIsRefusedDuringTheHandshake() {
    assertThatThrownBy(() -> filter(false)).isInstanceOf(SSLException.class);
  }

  private HttpResponse<String> get(String path, boolean withClientCert)
      throws IOException, InterruptedException {
    HttpClient client =
        HttpClient.newBuilder()
            .sslContext(CERTS.clientContext(withClientCert))
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    return client.send(
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @ParameterizedTest(
      name = "{0} is served to a client with a certificate and refused to one without")
  @ValueSource(
      strings = {
        "/",
        "/app.js",
        "/debug/overview",
        "/debug/pending-pods",
        "/scheduler/explain/shop/redis-2?format=text"
      })
  void theWebPageAndItsViewsFollowTheSameRules(String path) throws Exception {
    assertThat(get(path, true).statusCode()).isEqualTo(200);
    assertThatThrownBy(() -> get(path, false)).isInstanceOf(SSLException.class);
  }

  @Test
  void plainHttpIsNotServed() throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/scheduler/filter"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("Tomcat's answer to plain HTTP on a TLS port").isEqualTo(400);
  }

  @Test
  void withClientCertificatesRequiredTheServerListensOnEveryInterface() {
    Object address =
        ((TomcatWebServer) context.getWebServer())
            .getTomcat()
            .getConnector()
            .getProperty("address");
    assertThat(address).isNull();
  }
}
