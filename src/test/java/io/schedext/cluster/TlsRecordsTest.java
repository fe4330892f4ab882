package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TlsRecordsTest {

  @Test
  void eachRecordOpensWhole() throws Exception {
    TlsRecords records = new TlsRecords();

    assertThat(records.open(3)).isEqualTo(3L * TlsRecords.RECORD_BYTES);
    assertThat(records.open(0)).isZero();
    assertThat(records.open(1))
        .as("the same record opens again: nothing is left of the last")
        .isEqualTo(TlsRecords.RECORD_BYTES);
  }
}
