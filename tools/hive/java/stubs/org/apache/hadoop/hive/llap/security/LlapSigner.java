package org.apache.hadoop.hive.llap.security;

import java.io.IOException;

/**
 * Stand-in for hive-llap-common's LlapSigner. FunctionRegistry registers the get_splits UDTF,
 * whose class names these types, so they must load; get_splits itself needs LLAP and is not
 * supported on this engine.
 */
public interface LlapSigner {
  interface Signable {
    void setSignInfo(int masterKeyId);

    byte[] serialize() throws IOException;
  }

  final class SignedMessage {
    public byte[] signature;
    public byte[] message;
  }

  SignedMessage serializeAndSign(Signable message) throws IOException;

  void checkSignature(byte[] message, byte[] signature, int keyId) throws SecurityException;
}
