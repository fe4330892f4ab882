package io.schedext.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;

/**
 * Keeps the extender's port on the loopback interface unless callers must prove who they are. The
 * bind verb places any pod on any node it names, so a port anyone in the cluster network can reach
 * without authentication lets anyone schedule anything; the sidecar layout (kube-scheduler in the
 * same pod) needs nothing but loopback. Hence: without an explicit {@code server.address} and
 * without client-certificate authentication ({@code server.ssl.client-auth=need} on enabled TLS),
 * the server listens on 127.0.0.1 only. An explicit {@code server.address} always wins. Only the
 * main server is affected: a separate management server ({@code management.server.port}) follows
 * {@code management.server.address}.
 */
final class LoopbackByDefault
    implements WebServerFactoryCustomizer<ConfigurableWebServerFactory>, Ordered {

  private static final Logger log = LoggerFactory.getLogger(LoopbackByDefault.class);

  /** 127.0.0.1: IPv4 loopback, which every pod and every kube-scheduler host has. */
  static final InetAddress LOOPBACK;

  static {
    try {
      LOOPBACK = InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
    } catch (UnknownHostException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ServerProperties server;

  /** A customizer deciding from {@code server}'s address and TLS settings. */
  LoopbackByDefault(ServerProperties server) {
    this.server = server;
  }

  @Override
  public void customize(ConfigurableWebServerFactory factory) {
    if (server.getAddress() != null) {
      log.info(
          "Listening on server.address={} as configured", server.getAddress().getHostAddress());
      return;
    }
    if (clientCertificatesRequired(server.getSsl())) {
      log.info(
          "Listening on every interface: TLS with client-certificate authentication (server.ssl.client-auth="
              + "need) is configured");
      return;
    }
    factory.setAddress(LOOPBACK);
    log.info(
        "Listening on 127.0.0.1 only: no client-certificate authentication is configured and server.address "
            + "is not set (see docs/configuration.md, 'TLS and access')");
  }

  /**
   * True when TLS is enabled and every client must present a certificate the trust bundle accepts.
   */
  static boolean clientCertificatesRequired(Ssl ssl) {
    return Ssl.isEnabled(ssl) && ssl.getClientAuth() == Ssl.ClientAuth.NEED;
  }

  /** Runs after Spring Boot's own customizer, which applies an explicit {@code server.address}. */
  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
