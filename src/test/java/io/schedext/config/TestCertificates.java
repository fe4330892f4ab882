package io.schedext.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away PKI for TLS tests, made with the JDK's own keytool (no BouncyCastle): a CA, a server
 * certificate for localhost/127.0.0.1 and a client certificate, both signed by the CA, written as
 * PEM files the way a Kubernetes TLS Secret holds them ({@code ca.crt}, {@code tls.crt}, {@code
 * tls.key}, {@code client.crt}, {@code client.key}). Private keys are read back from keytool's
 * PKCS#12 stores and written as PKCS#8 PEM.
 */
final class TestCertificates {

  private static final String PASSWORD = "changeit";

  final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /**
   * Generates the CA, server and client certificates into a new temporary directory (a few keytool
   * runs).
   */
  static TestCertificates generate() {
    try {
      Path dir = Files.createTempDirectory("schedext-tls");
      TestCertificates c = new TestCertificates(dir);
      c.keytool(
          "-genkeypair",
          "-alias",
          "ca",
          "-keyalg",
          "EC",
          "-groupname",
          "secp256r1",
          "-dname",
          "CN=schedext-test-ca",
          "-ext",
          "bc:c",
          "-validity",
          "2",
          "-keystore",
          "ca.p12");
      c.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.crt");
      c.issue("server", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1", "EKU=serverAuth", "tls");
      c.issue("client", "CN=kube-scheduler", null, "EKU=clientAuth", "client");
      return c;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void issue(String alias, String dname, String san, String eku, String prefix)
      throws IOException {
    keytool(
        "-genkeypair",
        "-alias",
        alias,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        dname,
        "-validity",
        "2",
        "-keystore",
        alias + ".p12");
    keytool("-certreq", "-alias", alias, "-keystore", alias + ".p12", "-file", alias + ".csr");
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                "ca.p12",
                "-rfc",
                "-validity",
                "2",
                "-infile",
                alias + ".csr",
                "-outfile",
                prefix + ".crt",
                "-ext",
                eku));
    if (san != null) {
      gencert.addAll(List.of("-ext", san));
    }
    keytool(gencert.toArray(String[]::new));
    try (InputStream in = Files.newInputStream(dir.resolve(alias + ".p12"))) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD.toCharArray());
      PrivateKey key = (PrivateKey) ks.getKey(alias, PASSWORD.toCharArray());
      String pem =
          "-----BEGIN PRIVATE KEY-----\n"
              + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                  .encodeToString(key.getEncoded())
              + "\n-----END PRIVATE KEY-----\n";
      Files.writeString(dir.resolve(prefix + ".key"), pem);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private void keytool(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A path in the directory, as a {@code file:} location for Spring properties. */
  String location(String file) {
    return "file:" + dir.resolve(file);
  }

  /**
   * A client context trusting the test CA, presenting the client certificate when {@code
   * withClientCert}.
   */
  SSLContext clientContext(boolean withClientCert) {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", certificate("ca.crt"));
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      KeyManagerFactory kmf = null;
      if (withClientCert) {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        try (InputStream in = Files.newInputStream(dir.resolve("client.p12"))) {
          KeyStore generated = KeyStore.getInstance("PKCS12");
          generated.load(in, PASSWORD.toCharArray());
          keys.setKeyEntry(
              "client",
              generated.getKey("client", PASSWORD.toCharArray()),
              PASSWORD.toCharArray(),
              new Certificate[] {certificate("client.crt"), certificate("ca.crt")});
        }
        kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
      }
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private X509Certificate certificate(String file) throws IOException, GeneralSecurityException {
    byte[] pem = Files.readAllBytes(dir.resolve(file));
    return (X509Certificate)
        CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
  }
}
