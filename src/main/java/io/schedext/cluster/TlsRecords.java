package io.schedext.cluster;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * TLS 1.3 records opened as the JDK's TLS engine opens each record of the API server's connection:
 * AES-GCM under a fresh nonce, the record header as additional data, decrypted in place in a heap
 * buffer. The warm-up runs it with the watch events it decodes ({@link
 * KubernetesCluster#warmUpEvents}), for a cluster reached over HTTPS. The watches are idle before
 * ready, and a small cluster's lists are a few hundred records, so the cipher's code was compiled
 * while the first real watch events came (docs/performance.md). The key and the record are the
 * warm-up's own; nothing is sent.
 */
final class TlsRecords {

  /** The plaintext of one record: a watch event of a typical pod, as the API server writes it. */
  static final int RECORD_BYTES = 3_000;

  private static final int TAG_BITS = 128;
  private static final int HEADER_BYTES = 5;

  private final Cipher cipher;
  private final SecretKeySpec key;
  private final byte[] nonce = new byte[12];
  private final byte[] header = new byte[HEADER_BYTES];
  private final byte[] sealed;
  private final ByteBuffer record;

  TlsRecords() throws GeneralSecurityException {
    SecureRandom random = new SecureRandom();
    byte[] secret = new byte[16];
    random.nextBytes(secret);
    random.nextBytes(nonce);
    key = new SecretKeySpec(secret, "AES");
    cipher = Cipher.getInstance("AES/GCM/NoPadding");
    // An application-data record's header: type, legacy version, length of what follows.
    int length = RECORD_BYTES + TAG_BITS / 8;
    header[0] = 23;
    header[1] = 3;
    header[2] = 3;
    header[3] = (byte) (length >>> 8);
    header[4] = (byte) length;
    byte[] plain = new byte[RECORD_BYTES];
    random.nextBytes(plain);
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(header);
    sealed = cipher.doFinal(plain);
    record = ByteBuffer.allocate(sealed.length);
  }

  /** Opens the record {@code times} times; returns the bytes opened, so that the work is kept. */
  long open(int times) throws GeneralSecurityException {
    long opened = 0;
    for (int i = 0; i < times; i++) {
      record.clear();
      record.put(sealed);
      record.flip();
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(header);
      ByteBuffer in = record.duplicate();
      opened += cipher.doFinal(in, record);
    }
    return opened;
  }
}
