/**
 * How a chat screen's threads are filed as conversations (conversations/save.php, which replaces
 * what a conversation holds with the list sent): each thread's saves one after the other, so an
 * earlier list never lands over a later one and a new thread is created once; a save that fails is
 * tried again, then told. A reply whose thread is not the open one (its screen was left, or another
 * conversation is open) goes after what its conversation holds by then. The screen's own state is
 * useConversationScreen's.
 */
import { ApiError } from "../api/client";
import type { ChatMessage, ChatRequest } from "../api/chat";
import { loadConversation, saveConversation } from "../api/conversations";

/**
 * One conversation as this tab files it (one object per conversation id, so a thread opened again
 * is the same one): the id it is stored under once it has one, and its saves.
 */
export interface FiledThread {
  id: string | null;
  /** Jobs of its replies asked before it had an id: its next save files their charges under it. */
  jobs: string[];
  /** The end of its last save (never rejects): the next one starts after it. */
  saved: Promise<void>;
}

const threads = new Map<string, FiledThread>();

/** The thread of conversation `id`, or (null) a new thread, not filed yet. */
export function threadOf(id: string | null): FiledThread {
  const known = id === null ? undefined : threads.get(id);
  if (known) return known;
  const thread: FiledThread = { id, jobs: [], saved: Promise.resolve() };
  if (id !== null) threads.set(id, thread);
  return thread;
}

/** Gives a new thread its id: the server's, at its first save, or the client's (the Doctor's, at its first question). */
export function nameThread(thread: FiledThread, id: string): void {
  thread.id = id;
  threads.set(id, thread);
}

/** How a thread is filed: whose it is, its persona and title, and what is told after a save. */
export interface Filing {
  userId: string;
  avatarType: ChatRequest["avatarType"];
  title: (firstQuestion: string | undefined) => string;
  /** After a save: `all` is stored under `thread.id`. */
  saved: (thread: FiledThread, all: ChatMessage[]) => void;
  /** Every try of a save failed, or it was refused (a 4xx: a conversation deleted meanwhile among them). */
  failed: () => void;
}

/** The waits before the tries after the first. */
const SAVE_RETRY_MS = [1_000, 3_000, 9_000];
const MAX_JOB_IDS = 20;

const gone = (error: unknown) => error instanceof ApiError && error.status === 404;
/** A failure another try may not have: the network, a 5xx, a 429 (a 4xx otherwise says the list itself is refused). */
const passing = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

/**
 * Files `thread` once the saves before it have ended, with what `messages` gives then (read at
 * its turn, and again at each try).
 */
export function fileThread(
  thread: FiledThread,
  messages: () => Promise<ChatMessage[]> | ChatMessage[],
  how: Filing,
): Promise<void> {
  const run = thread.saved.then(async () => {
    for (let attempt = 0; ; attempt += 1) {
      const jobIds = thread.jobs.slice(0, MAX_JOB_IDS);
      let all: ChatMessage[];
      let id: string;
      try {
        all = await messages();
        id = await saveConversation({
          userId: how.userId,
          conversationId: thread.id ?? "new",
          title: how.title(all.find((m) => m.type === "user")?.content),
          messages: all,
          avatarType: how.avatarType,
          ...(jobIds.length > 0 ? { jobIds } : {}),
        });
      } catch (error) {
        const wait = SAVE_RETRY_MS[attempt];
        if (wait === undefined || !passing(error)) return how.failed();
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      if (thread.id === null) nameThread(thread, id);
      thread.jobs = thread.jobs.filter((job) => !jobIds.includes(job));
      return how.saved(thread, all);
    }
  });
  // A throw in a callback must not stop the saves after it.
  thread.saved = run.catch(() => undefined);
  return thread.saved;
}

/**
 * Files `question` and its `reply` in `thread` when it is not on screen: after what its
 * conversation holds by then (the `history` it was asked over, if it was never filed).
 */
export function fileAway(thread: FiledThread, question: ChatMessage, reply: ChatMessage, history: ChatMessage[], how: Filing) {
  return fileThread(
    thread,
    async () => {
      let before = history;
      if (thread.id) {
        try {
          before = await loadConversation(thread.id, how.userId);
        } catch (error) {
          // Only a conversation never filed (or deleted) starts from the history; another failure
          // is tried again, as saving over what it holds would lose that.
          if (!gone(error)) throw error;
        }
      }
      return [...before, question, reply];
    },
    how,
  );
}
