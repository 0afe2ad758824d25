/** Definitions from a small built-in dictionary, in English and Arabic. */
import { say } from "./format";
import { cues, findPhrases, hasPhrase, phraseTable } from "./text";
import type { Skill } from "./types";

interface Entry {
  en: { term: string; definition: string };
  ar: { term: string; definition: string };
  /** Other ways to name the term, in either language. */
  aliases?: readonly string[];
  /** Health topics get the Doctor persona's disclaimer. */
  health?: boolean;
}

const ENTRIES: readonly Entry[] = [
  {
    en: { term: "Algorithm", definition: "a finite sequence of well-defined steps that solves a problem or performs a task." },
    ar: { term: "الخوارزمية", definition: "سلسلة محددة من الخطوات الواضحة لحل مشكلة أو أداء مهمة." },
    aliases: ["algorithms", "خوارزميه", "خوارزميات"],
  },
  {
    en: {
      term: "Artificial intelligence",
      definition:
        "the field of computer science that builds systems able to perform tasks that normally need human intelligence, such as recognising speech or making decisions.",
    },
    ar: {
      term: "الذكاء الاصطناعي",
      definition: "فرع من علوم الحاسوب يبني أنظمة قادرة على أداء مهام تحتاج عادةً إلى ذكاء بشري، مثل فهم الكلام واتخاذ القرارات.",
    },
    aliases: ["ai"],
  },
  {
    en: {
      term: "Atom",
      definition: "the smallest unit of a chemical element, made of a nucleus of protons and neutrons surrounded by electrons.",
    },
    ar: {
      term: "الذرة",
      definition: "أصغر وحدة من العنصر الكيميائي، تتكون من نواة فيها بروتونات ونيوترونات تحيط بها الإلكترونات.",
    },
    aliases: ["atoms", "ذره"],
  },
  {
    en: { term: "Molecule", definition: "two or more atoms held together by chemical bonds, such as water (H2O)." },
    ar: { term: "الجزيء", definition: "ذرتان أو أكثر مرتبطة بروابط كيميائية، مثل جزيء الماء." },
    aliases: ["molecules", "جزيء", "جزيئات"],
  },
  {
    en: {
      term: "Gravity",
      definition:
        "the force by which masses attract each other; it keeps us on the ground and the planets in orbit around the Sun.",
    },
    ar: {
      term: "الجاذبية",
      definition: "القوة التي تتجاذب بها الأجسام ذات الكتلة، وهي التي تبقينا على الأرض وتبقي الكواكب في مداراتها حول الشمس.",
    },
    aliases: ["جاذبيه"],
  },
  {
    en: {
      term: "Energy",
      definition:
        "the capacity to do work, found in forms such as heat, light, motion and electricity; it is measured in joules.",
    },
    ar: { term: "الطاقة", definition: "القدرة على بذل شغل، ولها أشكال مثل الحرارة والضوء والحركة والكهرباء، وتقاس بالجول." },
    aliases: ["طاقه"],
  },
  {
    en: {
      term: "Photosynthesis",
      definition: "the process by which plants use sunlight, water and carbon dioxide to make sugar and release oxygen.",
    },
    ar: {
      term: "التمثيل الضوئي",
      definition: "العملية التي تستخدم بها النباتات ضوء الشمس والماء وثاني أكسيد الكربون لصنع السكر وإطلاق الأكسجين.",
    },
    aliases: ["البناء الضوئي"],
  },
  {
    en: {
      term: "Oxygen",
      definition: "a chemical element (symbol O) and a gas making up about 21% of the air; living things need it to breathe.",
    },
    ar: { term: "الأكسجين", definition: "عنصر كيميائي (رمزه O) وغاز يشكل نحو 21% من الهواء، وتحتاجه الكائنات الحية للتنفس." },
    aliases: ["اكسجين", "oxygen gas"],
  },
  {
    en: {
      term: "Planet",
      definition:
        "a large body that orbits a star, is rounded by its own gravity and has cleared its orbit; Earth is one of eight planets of the Sun.",
    },
    ar: {
      term: "الكوكب",
      definition: "جرم كبير يدور حول نجم، كروي الشكل بفعل جاذبيته، والأرض أحد كواكب المجموعة الشمسية الثمانية.",
    },
    aliases: ["planets", "كوكب", "كواكب"],
  },
  {
    en: {
      term: "Galaxy",
      definition: "a huge system of stars, gas and dust held together by gravity; our Sun is in the Milky Way galaxy.",
    },
    ar: { term: "المجرة", definition: "نظام ضخم من النجوم والغاز والغبار تربطه الجاذبية، وشمسنا في مجرة درب التبانة." },
    aliases: ["galaxies", "مجره", "مجرات"],
  },
  {
    en: {
      term: "Climate",
      definition: "the usual weather of a place over many years, such as its average temperature and rainfall.",
    },
    ar: { term: "المناخ", definition: "حالة الطقس المعتادة لمكان ما على مدى سنوات طويلة، مثل متوسط الحرارة والأمطار." },
    aliases: ["مناخ"],
  },
  {
    en: {
      term: "Democracy",
      definition:
        "a system of government in which power belongs to the people, who usually choose their representatives in free elections.",
    },
    ar: { term: "الديمقراطية", definition: "نظام حكم تكون فيه السلطة للشعب، الذي يختار ممثليه عادةً في انتخابات حرة." },
    aliases: ["ديمقراطيه"],
  },
  {
    en: {
      term: "Economy",
      definition: "the system by which a country or region produces, distributes and consumes goods and services.",
    },
    ar: { term: "الاقتصاد", definition: "النظام الذي ينتج به بلد أو منطقة السلع والخدمات ويوزعها ويستهلكها." },
    aliases: ["economics", "اقتصاد"],
  },
  {
    en: { term: "Inflation", definition: "the general rise of prices over time, which means the same money buys less." },
    ar: { term: "التضخم", definition: "الارتفاع العام في الأسعار مع الوقت، بحيث تشتري النقود نفسها أقل من قبل." },
    aliases: ["تضخم"],
  },
  {
    en: {
      term: "Internet",
      definition: "the worldwide network of connected computers that exchange data using shared protocols.",
    },
    ar: { term: "الإنترنت", definition: "الشبكة العالمية من الحواسيب المتصلة التي تتبادل البيانات عبر بروتوكولات مشتركة." },
    aliases: ["انترنت", "نت"],
  },
  {
    en: {
      term: "Computer",
      definition: "an electronic machine that stores and processes data by following instructions called programs.",
    },
    ar: { term: "الحاسوب", definition: "آلة إلكترونية تخزن البيانات وتعالجها باتباع تعليمات تسمى البرامج." },
    aliases: ["computers", "كمبيوتر", "حاسب", "حاسوب"],
  },
  {
    en: {
      term: "Software",
      definition: "the programs and data that tell a computer what to do, as opposed to its physical parts (hardware).",
    },
    ar: { term: "البرمجيات", definition: "البرامج والبيانات التي تخبر الحاسوب بما يفعله، مقابل أجزائه المادية (العتاد)." },
    aliases: ["برمجيات", "برنامج"],
  },
  {
    en: {
      term: "Cloud computing",
      definition: "using computing services such as storage and servers over the internet instead of on your own machines.",
    },
    ar: {
      term: "الحوسبة السحابية",
      definition: "استخدام خدمات الحوسبة مثل التخزين والخوادم عبر الإنترنت بدلًا من أجهزتك الخاصة.",
    },
    aliases: ["the cloud", "حوسبه سحابيه"],
  },
  {
    en: {
      term: "Password",
      definition:
        "a secret word or phrase that proves who you are when you sign in; a strong one is long, unique and never shared.",
    },
    ar: {
      term: "كلمة المرور",
      definition: "كلمة أو عبارة سرية تثبت هويتك عند تسجيل الدخول، والقوية منها طويلة وفريدة ولا تُشارك مع أحد.",
    },
    aliases: ["كلمه السر", "باسورد"],
  },
  {
    en: { term: "SMS", definition: "Short Message Service: short text messages sent between mobile phones." },
    ar: { term: "الرسائل القصيرة", definition: "خدمة الرسائل النصية القصيرة المتبادلة بين الهواتف المحمولة (SMS)." },
    aliases: ["text message", "رساله قصيره", "رسائل قصيره"],
  },
  {
    en: {
      term: "Virus",
      definition:
        "a tiny infectious agent that can only multiply inside the cells of a living host; viruses cause illnesses such as the flu and colds.",
    },
    ar: {
      term: "الفيروس",
      definition: "عامل معدٍ دقيق لا يتكاثر إلا داخل خلايا كائن حي، ويسبب أمراضًا مثل الإنفلونزا ونزلات البرد.",
    },
    aliases: ["viruses", "فيروس", "فيروسات"],
    health: true,
  },
  {
    en: {
      term: "Bacteria",
      definition:
        "single-celled living organisms found everywhere; most are harmless or useful, and some cause infections treated with antibiotics.",
    },
    ar: {
      term: "البكتيريا",
      definition:
        "كائنات حية وحيدة الخلية توجد في كل مكان، أغلبها غير ضار أو مفيد، وبعضها يسبب التهابات تعالج بالمضادات الحيوية.",
    },
    aliases: ["bacterium", "بكتيريا", "جراثيم"],
    health: true,
  },
  {
    en: {
      term: "Vaccine",
      definition:
        "a preparation that trains the immune system to recognise and fight a specific disease without causing the disease itself.",
    },
    ar: { term: "اللقاح", definition: "مستحضر يدرّب جهاز المناعة على التعرف على مرض معين ومقاومته دون أن يسبب المرض نفسه." },
    aliases: ["vaccines", "vaccination", "لقاح", "لقاحات", "تطعيم"],
    health: true,
  },
  {
    en: {
      term: "Antibiotic",
      definition: "a medicine that kills bacteria or stops them from growing; it does not work against viruses.",
    },
    ar: { term: "المضاد الحيوي", definition: "دواء يقتل البكتيريا أو يوقف نموها، ولا يفيد ضد الفيروسات." },
    aliases: ["antibiotics", "مضاد حيوي", "مضادات حيويه"],
    health: true,
  },
  {
    en: {
      term: "Blood pressure",
      definition: "the force of blood pushing against the walls of the arteries, written as two numbers such as 120/80 mmHg.",
    },
    ar: { term: "ضغط الدم", definition: "قوة دفع الدم على جدران الشرايين، ويُكتب برقمين مثل 120/80 ملم زئبق." },
    aliases: ["hypertension", "ضغط"],
    health: true,
  },
  {
    en: {
      term: "Diabetes",
      definition:
        "a long-term condition in which blood sugar stays too high because the body makes too little insulin or cannot use it well.",
    },
    ar: {
      term: "السكري",
      definition: "مرض مزمن يبقى فيه سكر الدم مرتفعًا لأن الجسم لا ينتج ما يكفي من الإنسولين أو لا يستخدمه جيدًا.",
    },
    aliases: ["مرض السكري", "diabetic"],
    health: true,
  },
  {
    en: {
      term: "Cholesterol",
      definition:
        "a fatty substance in the blood; the body needs some, but too much LDL cholesterol raises the risk of heart disease.",
    },
    ar: {
      term: "الكوليسترول",
      definition: "مادة دهنية في الدم يحتاج الجسم قدرًا منها، لكن ارتفاع الكوليسترول الضار يزيد خطر أمراض القلب.",
    },
    aliases: ["كوليسترول", "كولسترول"],
    health: true,
  },
  {
    en: {
      term: "Fever",
      definition: "a body temperature above about 38 °C (100.4 °F), usually a sign that the body is fighting an infection.",
    },
    ar: { term: "الحمى", definition: "ارتفاع حرارة الجسم فوق نحو 38 درجة مئوية، وهي غالبًا علامة على أن الجسم يقاوم عدوى." },
    aliases: ["حمي", "سخونه"],
    health: true,
  },
  {
    en: {
      term: "Calorie",
      definition: "a unit of energy; food calories (kilocalories) measure how much energy food gives the body.",
    },
    ar: { term: "السعرة الحرارية", definition: "وحدة طاقة، وتقيس السعرات الغذائية مقدار الطاقة التي يمنحها الطعام للجسم." },
    aliases: ["calories", "kcal", "سعرات حراريه", "سعرات", "سعره"],
    health: true,
  },
  {
    en: {
      term: "Protein",
      definition: "a nutrient made of amino acids that the body uses to build and repair muscles, skin and other tissues.",
    },
    ar: {
      term: "البروتين",
      definition: "عنصر غذائي مكوّن من أحماض أمينية يستخدمه الجسم لبناء العضلات والجلد والأنسجة الأخرى وإصلاحها.",
    },
    aliases: ["proteins", "بروتين", "بروتينات"],
    health: true,
  },
  {
    en: {
      term: "Vitamin",
      definition: "an organic nutrient the body needs in small amounts to work properly, such as vitamin C or vitamin D.",
    },
    ar: { term: "الفيتامين", definition: "مادة غذائية عضوية يحتاجها الجسم بكميات صغيرة ليعمل جيدًا، مثل فيتامين سي وفيتامين د." },
    aliases: ["vitamins", "فيتامين", "فيتامينات"],
    health: true,
  },
  {
    en: {
      term: "Immune system",
      definition: "the body's defence network of cells and organs that protects it against germs and disease.",
    },
    ar: { term: "جهاز المناعة", definition: "شبكة دفاع الجسم من الخلايا والأعضاء التي تحميه من الجراثيم والأمراض." },
    aliases: ["immunity", "مناعه"],
    health: true,
  },
];

const TERMS = phraseTable(ENTRIES.map((e) => ({ phrases: [e.en.term, e.ar.term, ...(e.aliases ?? [])], value: e })));

const DEFINITION_CUES = cues(
  "what is",
  "what s",
  "whats",
  "what are",
  "what does",
  "define",
  "definition",
  "meaning",
  "means",
  "explain",
  "tell me about",
  "ما هو",
  "ما هي",
  "ما معني",
  "ماذا يعني",
  "ماذا تعني",
  "عرف",
  "تعريف",
  "ما المقصود",
  "يعني ايش",
  "شو يعني",
  "اشرح",
);

/** "what is photosynthesis?", "define inflation", "ما معنى التضخم", or just the term. */
export const dictionarySkill: Skill = (ctx) => {
  const [match] = findPhrases(ctx.tokens, TERMS);
  if (!match) return null;
  const alone = match.end - match.start === ctx.tokens.length;
  if (!alone && !hasPhrase(ctx.tokens, DEFINITION_CUES)) return null;
  const entry = match.value;
  const text = say(ctx.language, `${entry.en.term}: ${entry.en.definition}`, `${entry.ar.term}: ${entry.ar.definition}`);
  return { text, health: entry.health };
};
