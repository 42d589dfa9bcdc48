"""An OpenAI-compatible /v1/embeddings server over WordLlama's l2_supercat static embeddings (the
weights and tokenizer shipped in the PyPI wheel), for measuring a semantic embedder inside strata's
real hybrid pipeline. Average of token embeddings, L2-normalised, no special tokens."""
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer
import wordllama, os
base = os.path.dirname(wordllama.__file__)
tok = Tokenizer.from_file(os.path.join(base, "tokenizers/l2_supercat_tokenizer_config.json"))
tok.no_padding(); tok.enable_truncation(int(os.environ.get("MAXLEN", "2048")))
weights = load_file(os.path.join(base, "weights/l2_supercat_256.safetensors"))
emb = next(iter(weights.values())).astype(np.float32)
print("embedding", emb.shape, file=sys.stderr)
def embed(texts):
    out = []
    for enc in tok.encode_batch(texts, add_special_tokens=False):
        ids = np.clip(np.array(enc.ids, dtype=np.int64), 0, emb.shape[0] - 1)
        v = emb[ids].mean(axis=0) if len(ids) else np.zeros(emb.shape[1], np.float32)
        n = np.linalg.norm(v); out.append((v / n if n > 0 else v).tolist())
    return out
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        inp = body["input"]; inp = [inp] if isinstance(inp, str) else inp
        vecs = embed(inp)
        resp = json.dumps({"object": "list", "model": body.get("model", "wordllama"),
            "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)],
            "usage": {"prompt_tokens": 0, "total_tokens": 0}}).encode()
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(resp))); self.end_headers(); self.wfile.write(resp)
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
